#if canImport(Glibc)
import Glibc
#endif
import Backends
import NIORuntimes
import Testing

/// The backends the conformance kit runs on here: all registered ones, or the comma-separated ids
/// in CONFORMANCE_BACKENDS, to run fewer (the ThreadSanitizer run in .ci/run includes every
/// backend: this toolchain's TSan intercepts libdispatch; should it ever report inside
/// libdispatch, that run can leave out its adapters with this variable).
let conformanceBackends: [Backend] = {
    guard let raw = getenv("CONFORMANCE_BACKENDS"), case let wanted = String(cString: raw), !wanted.isEmpty else {
        return Backends.all
    }
    let ids = wanted.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
    for id in ids where Backends.named(id) == nil {
        fatalError(
            "CONFORMANCE_BACKENDS names '\(id)', which is not a backend; known: \(Backends.ids.joined(separator: ", "))"
        )
    }
    return Backends.all.filter { ids.contains($0.id) }
}()

extension Substring {
    fileprivate func trimmingCharacters(in blanks: String) -> String {
        String(drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }.reversed())
    }
}

/// nio-global needs NIO installed as Swift's global executor before any task exists; in a test
/// process Swift Testing's tasks came first, so here it would run on Swift's own pool and check
/// nothing of NIO's. Its scenarios are skipped here, saying so on a line of its own, and
/// `NIOGlobalProbeTests` runs every one of them in a child process that took over.
func skipWhereTheBackendCannotRunHere(_ backend: Backend) throws {
    guard backend.kind == .nioGlobal else { return }
    if case .installed = GlobalExecutorTakeover.state { return }
    let message =
        "not applicable in this process: nio-global needs NIO installed as Swift's global executor before any "
        + "task exists; NIOGlobalProbeTests runs the kit on it in a child process"
    print("⊘ skipped: \(backend.id): \(message)")
    try Test.cancel(Comment(rawValue: message))
}

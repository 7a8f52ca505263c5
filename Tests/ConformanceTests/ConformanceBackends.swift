#if canImport(Glibc)
import Glibc
#endif
import Backends

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

import Harness

/// Swift names as a person reads them ("StealingRuntime.join<A, B>(_:_:)"), by the toolchain's
/// `swift-demangle --simplified`; perf prints Swift symbols mangled. Without the tool the names
/// stay mangled, and `missing` says why.
public struct SwiftDemangler: Sendable {
    public let tool: String?

    /// swift-demangle on PATH, or beside `swift` on PATH.
    public init() {
        tool = ExecutableSearch.find("swift-demangle")
    }

    public var missing: String? {
        tool == nil
            ? "swift-demangle not found on PATH (it comes with the Swift toolchain): "
                + "Swift frames keep their mangled names" : nil
    }

    /// `names` demangled; a name that is not a Swift symbol maps to itself.
    public func demangle(_ names: Set<String>) async -> [String: String] {
        var result: [String: String] = [:]
        let mangled = names.filter { $0.hasPrefix("$s") || $0.hasPrefix("_$s") || $0.hasPrefix("$S") }.sorted()
        guard let tool, !mangled.isEmpty else { return result }
        var start = 0
        while start < mangled.count {
            let chunk = Array(mangled[start..<min(start + 400, mangled.count)])
            start += chunk.count
            guard
                let outcome = try? await ChildProcess.run(
                    executable: tool, arguments: ["--simplified", "--compact"] + chunk,
                    deadline: .seconds(60)),
                outcome.ending == .exited(0)
            else { continue }
            let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            for (name, line) in zip(chunk, lines) where !line.isEmpty { result[name] = String(line) }
        }
        return result
    }
}

import Results
import Backends

/// The cases of a run, in the order they will run: workload, then parameter set, then backend,
/// then allocator. Built from what the user asked for; every name is checked before anything
/// runs, so a typo is an error listing the valid names, not an empty run.
public struct RunPlan: Sendable {
    public let cases: [BenchmarkCase]
    public let repetitions: Int

    public init(
        workloads: [any Workload],
        suite: Suite,
        backends: [Backend],
        allocators: [Allocator],
        filter: String?,
        repetitions: Int
    ) throws(PlanError) {
        guard repetitions >= 1 else { throw .invalid("--repetitions must be at least 1, got \(repetitions)") }
        if let filter, let problem = RegexPattern.problem(with: filter) {
            throw .invalid("--filter '\(RegexPattern.shown(filter))' \(problem)")
        }
        let pattern: Regex<AnyRegexOutput>?
        do {
            pattern = try filter.map { try Regex($0) }
        } catch {
            let text = filter ?? ""
            throw .invalid("--filter '\(text)' is not a valid regular expression: \(error), \(Self.whereInvalid(text))")
        }
        var cases: [BenchmarkCase] = []
        for workload in workloads {
            for parameters in workload.parameterSets(for: suite) {
                let backendIDs = workload.usesBackend(for: parameters) ? backends.map(\.id) : [BenchmarkCase.noBackend]
                for backend in backendIDs {
                    for allocator in allocators {
                        let candidate = BenchmarkCase(
                            workload: workload.name, backend: backend, parameters: parameters, allocator: allocator)
                        if let pattern, (try? pattern.firstMatch(in: candidate.id)) == nil { continue }
                        cases.append(candidate)
                    }
                }
            }
        }
        guard !cases.isEmpty else {
            throw .invalid(
                "no case matches" + (filter.map { " --filter '\($0)'" } ?? "")
                    + "; `bench list` shows the workloads and backends")
        }
        self.cases = cases
        self.repetitions = repetitions
    }

    /// A plan of exactly these cases, in this order (`bench check` re-runs a baseline's cases).
    public init(cases: [BenchmarkCase], repetitions: Int) throws(PlanError) {
        guard repetitions >= 1 else { throw .invalid("--repetitions must be at least 1, got \(repetitions)") }
        guard !cases.isEmpty else { throw .invalid("no case to run") }
        self.cases = cases
        self.repetitions = repetitions
    }

    /// Where a pattern stops being valid: just after its longest prefix that still compiles.
    /// Swift's regex errors carry no position; for an unclosed group or class this points at the
    /// opening bracket, for a bad escape at the backslash.
    static func whereInvalid(_ pattern: String) -> String {
        let characters = Array(pattern)
        var valid = 0
        for length in stride(from: characters.count, through: 0, by: -1)
        where (try? Regex(String(characters[0..<length]))) != nil {
            valid = length
            break
        }
        guard valid < characters.count else { return "at the end" }
        let marker = String(repeating: " ", count: valid) + "^"
        return "at character \(valid + 1), '\(characters[valid])':\n    \(pattern)\n    \(marker)"
    }

    /// Looks names up, failing with the list of valid ones.
    public static func select<T>(_ names: [String], from all: [T], kind: String, name: (T) -> String) throws(PlanError)
        -> [T]
    {
        guard !names.isEmpty else { return all }
        return try names.map { (wanted: String) throws(PlanError) -> T in
            guard let found = all.first(where: { name($0) == wanted }) else {
                throw .invalid("unknown \(kind) '\(wanted)'; valid: \(all.map(name).joined(separator: ", "))")
            }
            return found
        }
    }
}

public enum PlanError: Error, CustomStringConvertible, Equatable {
    case invalid(String)
    public var description: String {
        switch self {
        case .invalid(let why): why
        }
    }
}

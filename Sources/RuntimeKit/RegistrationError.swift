/// Why a runtime, a workload, a counter source or an output format could not be registered by
/// another package (`Bench.main(runtimes:workloads:counters:formats:)`).
public enum RegistrationError: Error, Equatable, CustomStringConvertible {
    case duplicate(id: String, type: String, other: String)
    case badID(id: String, type: String, problem: String)
    case badParameters(workload: String, suite: String, problem: String)
    case registeredTwice(type: String)
    case duplicateMetric(name: String, type: String, other: String)

    public var description: String {
        switch self {
        case .duplicate(let id, let type, let other):
            "\(type) and \(other) both have the id '\(id)'; ids must be unique"
        case .badID(let id, let type, let problem): "\(type)'s id '\(id)' \(problem)"
        case .badParameters(let workload, let suite, let problem): "workload '\(workload)', \(suite) suite: \(problem)"
        case .registeredTwice(let type): "\(type) is registered twice"
        case .duplicateMetric(let name, let type, let other):
            "\(type) and \(other) both report the metric '\(name)'; metric names must be unique"
        }
    }

    /// Why `id` cannot name a backend or a workload in a case id, or nil. `none` names the
    /// backend of cases that use none.
    public static func problem(withID id: String, reservingNone: Bool) -> String? {
        if id.isEmpty { return "is empty" }
        if reservingNone && id == "none" { return "is reserved for cases that use no backend" }
        return separatorProblem(in: id)
    }

    /// Why `text` cannot stand in a case id as a name or value (it holds `/`, `,`, `=` or a
    /// space, which a case id uses to separate its parts), or nil.
    public static func separatorProblem(in text: String) -> String? {
        text.first { "/,= ".contains($0) }.map { "holds '\($0)', which a case id uses as a separator" }
    }
}

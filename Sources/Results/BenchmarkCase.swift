/// One thing to measure: a workload, on a backend, with parameters, under an allocator. Its `id`
/// is stable and readable (it is what `--filter` matches, what results are keyed by, and what a
/// CI baseline compares), e.g. `apply-stride/libdispatch/body=10ns,stride=auto/system`.
public struct BenchmarkCase: Sendable, Codable, Hashable, CustomStringConvertible {
    public let workload: String
    /// The backend id, or `Self.noBackend` for workloads that measure a primitive directly
    /// (an uncontended pthread mutex needs no pool).
    public let backend: String
    /// In the workload's declared order, which the id keeps.
    public let parameters: [Parameter]
    public let allocator: Allocator

    public static let noBackend = "none"

    public init(workload: String, backend: String, parameters: [Parameter], allocator: Allocator) {
        for name in [workload, backend] + parameters.flatMap({ [$0.name, $0.value] }) {
            precondition(
                !name.isEmpty && !name.contains(where: { "/,= ".contains($0) }),
                "case id parts must be non-empty and free of '/', ',', '=' and spaces: '\(name)'")
        }
        self.workload = workload
        self.backend = backend
        self.parameters = parameters
        self.allocator = allocator
    }

    public var id: String {
        let parameterText =
            parameters.isEmpty ? "-" : parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        return "\(workload)/\(backend)/\(parameterText)/\(allocator.rawValue)"
    }

    public var description: String { id }

    /// The value of parameter `name`, or nil.
    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }
}

public struct Parameter: Sendable, Codable, Hashable {
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The allocator a case's child process runs with.
public enum Allocator: String, Sendable, Codable, CaseIterable {
    /// glibc malloc.
    case system
    /// jemalloc, through LD_PRELOAD of libjemalloc.so.2 in the child.
    case jemalloc
}

import Results

/// A case as something else cites it: a workload, a backend and the parameters that pick it out
/// (a case with more parameters still matches), in the order the workload writes them, so that
/// `benchmarkCase` is the workload's own case, id and all. The claims, the fidelity pairs and the report cite
/// cases through these constructors, each spelled with the catalogue's typed names and values, so
/// a renamed workload, parameter or value fails to compile or fails the test that checks every
/// cited case against the cases the workloads really generate (WorkloadsTests, CatalogueTests).
public struct CaseSpec: Sendable, Hashable, CustomStringConvertible {
    public let workload: WorkloadName
    public let backend: BackendName
    public let parameters: [Parameter]

    public init(
        _ workload: WorkloadName, on backend: BackendName, _ parameters: KeyValuePairs<ParameterName, String> = [:]
    ) {
        self.init(workload, on: backend, parameters.map { ($0.key, $0.value) })
    }

    public init(_ workload: WorkloadName, on backend: BackendName, _ parameters: [(ParameterName, String)]) {
        (self.workload, self.backend) = (workload, backend)
        self.parameters = parameters.map { Parameter($0.0.rawValue, $0.1) }
    }

    /// Whether `benchmarkCase` is this case (its allocator aside).
    public func matches(_ benchmarkCase: BenchmarkCase) -> Bool {
        benchmarkCase.workload == workload.rawValue && benchmarkCase.backend == backend.rawValue
            && parameters.allSatisfy { benchmarkCase.parameter($0.name) == $0.value }
    }

    /// The case under `allocator`.
    public func benchmarkCase(allocator: Allocator) -> BenchmarkCase {
        BenchmarkCase(
            workload: workload.rawValue, backend: backend.rawValue, parameters: parameters, allocator: allocator)
    }

    /// "queue-vs-lock/libdispatch/guard=queue-sync,threads=1,...": for messages, as in a case id.
    public var description: String {
        "\(workload)/\(backend)/" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
    }
}

extension CaseSpec {
    public static func queueVsLock(_ guarding: QueueVsLockGuard, on backend: BackendName, _ setting: QueueVsLockSetting)
        -> CaseSpec
    {
        CaseSpec(.queueVsLock, on: backend, [(.guard, guarding.rawValue)] + setting.parameters)
    }

    public static func semaphore(_ pattern: SemaphorePattern, _ kind: SemaphoreKind, on backend: BackendName)
        -> CaseSpec
    {
        CaseSpec(.semaphore, on: backend, [.pattern: pattern.rawValue, .semaphore: kind.rawValue])
    }

    public static func spawn(_ pattern: SpawnPattern, on backend: BackendName) -> CaseSpec {
        CaseSpec(.spawn, on: backend, [.pattern: pattern.rawValue])
    }

    public static func group(_ pattern: GroupPattern, on backend: BackendName) -> CaseSpec {
        CaseSpec(.group, on: backend, [.pattern: pattern.rawValue])
    }

    public static func footprint(_ unit: FootprintUnit, on backend: BackendName) -> CaseSpec {
        CaseSpec(.footprint, on: backend, [.unit: unit.rawValue])
    }

    /// pthread_create + join, under no backend.
    public static let threadSpawn = CaseSpec(.threadSpawn, on: .none)

    /// A parallel loop on `backend` with this body cost and stride ("1", "auto", a number).
    public static func applyStride(body: String, stride: String, on backend: BackendName, iterations: String? = nil)
        -> CaseSpec
    {
        let loop: [(ParameterName, String)] = iterations.map { [(.iterations, $0)] } ?? []
        return CaseSpec(.applyStride, on: backend, [(.body, body), (.stride, stride)] + loop)
    }

    /// The same loop, serial, under no backend.
    public static func applySerial(body: String) -> CaseSpec { CaseSpec(.applySerial, on: .none, [.body: body]) }

    /// A swift-async pattern on `backend`'s executors, with the parameters it has (`tasks`, `body`).
    public static func swiftAsync(
        _ pattern: AsyncPattern, on backend: BackendName, _ parameters: [(ParameterName, String)] = []
    ) -> CaseSpec {
        CaseSpec(.swiftAsync, on: backend, [(.pattern, pattern.rawValue)] + parameters)
    }

    public static func direct(_ operation: DirectOperation, on backend: BackendName) -> CaseSpec {
        CaseSpec(.direct, on: backend, [.operation: operation.rawValue])
    }
}

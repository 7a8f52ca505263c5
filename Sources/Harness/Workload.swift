import Results
import Backends

/// A family of measurements the harness can run: it names its parameter sets per suite and, in
/// the child process, prepares the operation for one case. Workloads live in Benchmarks/ (one file
/// per family) and are generic over the runtime; the harness never knows a concrete one.
public protocol Workload: Sendable {
    /// Stable name, the first part of a case id ("spin", "mutex-uncontended", "apply-stride").
    var name: String { get }
    var summary: String { get }
    /// What one operation is, for reports ("one critical section", "one iteration").
    var operation: String { get }
    /// False for workloads that measure a primitive directly; they run once, under backend "none".
    var usesBackend: Bool { get }
    /// Whether the cases of one parameter set run on every backend or once under "none": a family
    /// that compares a backend's primitive with one that needs no backend (a serial queue with a
    /// pthread mutex) says so per set. Defaults to `usesBackend`.
    func usesBackend(for parameters: [Parameter]) -> Bool
    /// The parameter sets to run in `suite` (each becomes one case per backend and allocator).
    func parameterSets(for suite: Suite) -> [[Parameter]]
    /// Builds the operation for `benchmarkCase` in the child. `backend` is nil when `usesBackend`
    /// is false. Throws `WorkloadError` for a parameter it cannot use, or to say "not applicable".
    func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation
    /// The figures its operations measure themselves (`MeasuredOperation.workloadMetrics`),
    /// described as counters are: unit, kind, direction, heading, and what a reader might misread.
    var figures: [Metric] { get }
}

/// One prepared operation of one case, alive for the whole child process.
public protocol MeasuredOperation: AnyObject {
    /// Performs `count` operations and returns when every one has completed.
    func run(_ count: Int) throws
    /// Checks everything run so far did what it should (a counter reached its expected value,
    /// every index ran once), then releases the runtime. A fast wrong backend fails here.
    func finish() throws
    /// Called once calibration is over, just before the first sample: an operation that keeps
    /// its own figures (hand-off latencies, each thread's share) starts them afresh here, so
    /// warm-up and calibration runs are not in them. Optional.
    func beginSamples()
    /// Figures only the workload can see, over the samples (since `beginSamples`): latency
    /// percentiles, fairness, the most holders ever seen. Read after `finish()`. Optional.
    var workloadMetrics: [String: WorkloadMetric] { get }
}

extension Workload {
    public func usesBackend(for parameters: [Parameter]) -> Bool { usesBackend }
    public var figures: [Metric] { [] }
}

extension MeasuredOperation {
    public func beginSamples() {}
    public var workloadMetrics: [String: WorkloadMetric] { [:] }
}

public enum WorkloadError: Error, Equatable, CustomStringConvertible {
    case badParameter(String)
    case notApplicable(String)
    case verificationFailed(String)

    public var description: String {
        switch self {
        case .badParameter(let why): "bad parameter: \(why)"
        case .notApplicable(let why): "not applicable: \(why)"
        case .verificationFailed(let why): "verification failed: \(why)"
        }
    }
}

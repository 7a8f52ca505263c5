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

/// How much to run.
public enum Suite: String, Sendable, Codable, CaseIterable {
    /// Seconds: one small case per workload, to check the machinery (CI, end-to-end tests).
    case smoke
    /// Under 3 minutes on a 2-core machine.
    case quick
    /// Under 30 minutes on a 2-core machine.
    case full

    /// Child processes per case unless the user says otherwise. A figure's interval comes from the
    /// spread between processes, so processes count more than samples: four processes of five
    /// samples cost the quick suite 9% more time than two of twenty, and give each case three
    /// degrees of freedom of its own instead of one (README, "How far a figure holds").
    public var defaultRepetitions: Int {
        switch self {
        case .smoke: 3
        case .quick: 4
        case .full: 5
        }
    }

    /// Samples per process unless the user says otherwise: enough for a steady median per
    /// process, the rest of the time spent on more processes.
    public var defaultSamples: Int { self == .full ? 10 : 5 }

    /// Minimum duration of one sample, in milliseconds, unless the user says otherwise. The quick
    /// suite's 5 ms is still 5,000 times the clock's resolution and longer than a scheduler tick.
    public var defaultSampleMilliseconds: Int { self == .quick ? 5 : 10 }
}

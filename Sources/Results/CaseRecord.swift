/// What a child prints (as one JSON line) for one case and repetition: the raw samples and how
/// they were taken. The parent decodes it, journals it at once, and never trusts it blindly:
/// a record whose case id is not the one asked for is a failure.
public struct CaseRecord: Sendable, Codable, Equatable {
    /// Bumped when a field changes meaning; the parent refuses records of another version.
    public static let currentVersion = 1

    public let version: Int
    public let caseID: String
    public let repetition: Int
    /// Operations per sample, from calibration. A sample that overran its time by
    /// `Sampler.overrunFactor` makes the samples after it use fewer (`Sampler.batch(after:of:target:)`).
    public let batch: Int
    /// Nanoseconds per operation, one value per sample, in the order taken.
    public let nanosecondsPerOperation: [Double]
    /// Counter deltas per operation over all samples, keyed by metric name: a value, or nil with
    /// the reason in `unavailable`.
    public let metricsPerOperation: [String: Double]
    /// Metric name → why it could not be measured in this child.
    public let unavailable: [String: String]
    /// Figures the workload measured itself (`MeasuredOperation.workloadMetrics`); nil when it
    /// has none, and in records written before they existed.
    public let workloadMetrics: [String: WorkloadMetric]?
    /// The CPUs the child could run on while measuring (all of them unless pinned).
    public let cpus: [Int]
    /// How far apart two of those CPUs were around the samples; nil with fewer than two CPUs, and
    /// in records written before the probe existed.
    public let cpuHop: CPUHop?

    public init(
        version: Int = CaseRecord.currentVersion, caseID: String, repetition: Int, batch: Int,
        nanosecondsPerOperation: [Double], metricsPerOperation: [String: Double],
        unavailable: [String: String], workloadMetrics: [String: WorkloadMetric]? = nil,
        cpus: [Int], cpuHop: CPUHop? = nil
    ) {
        self.workloadMetrics = workloadMetrics
        self.cpus = cpus
        self.cpuHop = cpuHop
        self.version = version
        self.caseID = caseID
        self.repetition = repetition
        self.batch = batch
        self.nanosecondsPerOperation = nanosecondsPerOperation
        self.metricsPerOperation = metricsPerOperation
        self.unavailable = unavailable
    }
}

/// How far apart two of the machine's CPUs were while a child measured: the nanoseconds a cache
/// line took to go from one to the other, probed just before the samples and just after them
/// (`CPUHopProbe`).
///
/// A hand-off between threads costs what moving its cache lines between CPUs costs, and on a VM
/// that changes under a run: the hypervisor moves the virtual CPUs between host cores. On the
/// 2-vCPU VM of this project a hop took 24–39 ns in most processes and about 200 ns in some, and
/// the empty task from outside measured in those took 140–190 ns against 52–71, with 3× the CPU
/// time and the same parks, wake-ups and yields. No counter of the runtime's own shows that; this
/// probe does, so a slow process can be told from a slow runtime (`ProcessSpread`).
public struct CPUHop: Sendable, Codable, Equatable {
    /// The two CPUs the line went between.
    public let cpus: [Int]
    /// Nanoseconds per hop before the samples, and after them.
    public let beforeNanoseconds: Double
    public let afterNanoseconds: Double

    public init(cpus: [Int], beforeNanoseconds: Double, afterNanoseconds: Double) {
        self.cpus = cpus
        self.beforeNanoseconds = beforeNanoseconds
        self.afterNanoseconds = afterNanoseconds
    }

    /// The slower of the two probes: the machine may have changed at either end of the samples.
    public var nanoseconds: Double { max(beforeNanoseconds, afterNanoseconds) }
    /// The faster of the two.
    public var nearestNanoseconds: Double { min(beforeNanoseconds, afterNanoseconds) }
}

/// A run's CPU hops: their median over the run's processes, against which one process's hop is
/// far or near. The report's noise paragraph counts the far ones, and `ProcessSpread` leaves both
/// out of its steady spread.
public struct RunCPUHops: Sendable {
    /// A hop more than this many times the run's median is far: the machine changed under that
    /// process (24–39 ns against about 200 on the 2-vCPU VM; nothing between 40 and 200 in 588).
    public static let farFactor = 2.0
    /// A hop, at either end of the samples, under this share of the run's median is near: the two
    /// virtual CPUs most likely ran on one core's two hardware threads, where a hand-off costs
    /// about half (AMD EPYC VM, two full runs of 1,713 and 1,737 processes: 12–19 ns at one end in
    /// 12–15% of them, 28–37 ns in most, nothing between 20 and 27).
    public static let nearFactor = 0.6

    /// The median hop over the processes probed; nil when none was (records from before the probe,
    /// or a run pinned to one CPU).
    public let median: Double?
    /// Processes probed, and those whose hop was far, and near.
    public let probed: Int
    public let far: Int
    public let near: Int

    public init(_ records: [CaseRecord]) {
        let hops = records.compactMap { $0.cpuHop?.nanoseconds }.sorted()
        median = hops.isEmpty ? nil : SampleStatistics.percentile(hops, 0.5)
        probed = hops.count
        far = median.map { median in hops.filter { $0 > median * Self.farFactor }.count } ?? 0
        let nearest = records.compactMap { $0.cpuHop?.nearestNanoseconds }
        near = median.map { median in nearest.filter { $0 < median * Self.nearFactor }.count } ?? 0
    }

    /// Whether `record`'s hop was far; false when it or the run has none.
    public func isFar(_ record: CaseRecord) -> Bool {
        guard let median, let hop = record.cpuHop?.nanoseconds else { return false }
        return hop > median * Self.farFactor
    }

    /// Whether `record`'s hop was near at either end; false when it or the run has none.
    public func isNear(_ record: CaseRecord) -> Bool {
        guard let median, let hop = record.cpuHop?.nearestNanoseconds else { return false }
        return hop < median * Self.nearFactor
    }

    /// Neither far nor near: the machine as most of the run's processes had it.
    public func isUsual(_ record: CaseRecord) -> Bool { !isFar(record) && !isNear(record) }
}

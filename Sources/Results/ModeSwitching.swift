/// A case whose processes changed mode while they ran: the samples of one process, not only the
/// processes, fall into groups `ProcessMode.separation` apart.
///
/// `ProcessMode` holds for modes a process takes at its start and keeps. Some cases do not keep
/// theirs: on the 2-core VM, semaphore ping-pong with two pairs per CPU read about 140 ns a hop in
/// some 10 ms samples of one process and 1.5 µs in others, as the kernel put partners on one CPU
/// and apart again, and an actor's call to Swift's pool read 1.2 µs and 10 µs in one process. Then
/// a process's figure mixes the modes by the share of its time it spent in each, and the spread
/// between processes is the spread of those shares: the report says so beside the case.
///
/// One slow sample is an interruption (`OutlierCounts` counts those), so a process switched only
/// when a fast and a slow group each hold `minimumSamples`; and a case switches only when
/// `minimumProcesses` of its processes did, since one process may have met a neighbour's burst.
public struct ModeSwitching: Sendable, Equatable {
    /// Samples each of the fast and the slow group need for a process to have switched.
    public static let minimumSamples = 2
    /// Processes that must have switched for the case to switch.
    public static let minimumProcesses = 2

    /// Processes whose samples switched between modes.
    public let switched: Int
    /// Processes with samples enough to tell (`2 × minimumSamples`).
    public let processes: Int
    /// Median over the processes that switched of their fast group's median sample, and of their
    /// slow group's, in nanoseconds per operation.
    public let fast: Double
    public let slow: Double

    /// Nil when fewer than `minimumProcesses` of `records` switched.
    public init?(_ records: [CaseRecord]) {
        let told = records.filter { $0.nanosecondsPerOperation.count >= 2 * Self.minimumSamples }
        let modes = told.compactMap { Self.modes(ofSamples: $0.nanosecondsPerOperation) }
        guard modes.count >= Self.minimumProcesses else { return nil }
        switched = modes.count
        processes = told.count
        fast = SampleStatistics.percentile(modes.map(\.fast).sorted(), 0.5)
        slow = SampleStatistics.percentile(modes.map(\.slow).sorted(), 0.5)
    }

    /// The medians of the fastest and the slowest group of `samples` (split as `ProcessMode.groups`
    /// splits processes) that hold `minimumSamples` each; nil when fewer than two groups do.
    public static func modes(ofSamples samples: [Double]) -> (fast: Double, slow: Double)? {
        let held = ProcessMode.groups(samples.filter { $0 > 0 && $0.isFinite }).filter {
            $0.count >= minimumSamples
        }
        guard let first = held.first, let last = held.last, held.count >= 2 else { return nil }
        return (SampleStatistics.percentile(first, 0.5), SampleStatistics.percentile(last, 0.5))
    }
}

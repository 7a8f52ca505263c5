import Results

/// The number of threads in this process now (the `Threads:` line of /proc/self/status), or
/// nil where that file does not exist. Workloads whose cost depends on the process's shape use
/// it to refuse a condition they cannot produce instead of measuring another one.
public func processThreadCount() -> Int? {
    SystemFacts.read("/proc/self/status")?.split(whereSeparator: \.isNewline)
        .first { $0.hasPrefix("Threads:") }
        .flatMap { Int($0.dropFirst("Threads:".count).trimmed) }
}

/// The threads alive in the child, observed by the sampler after every sample (outside the timed
/// batch and the counters' readings): every case reports the last reading and the largest. Which
/// threads a runtime keeps decides many results on Linux (Swift's cooperative pool has one per
/// CPU; libdispatch starts them as it likes; a spare worker or a stall monitor adds one).
public final class LiveThreads {
    public static let endName = "threads.end"
    public static let peakName = "threads.peak"

    /// Described for results files: figures of every case, beside the workloads' own.
    public static let figures = [
        Metric(
            peakName, unit: .count, kind: .event, heading: "threads (peak)",
            note: "threads alive in the child after each sample, the most seen: the measuring thread, "
                + "the runtime's, and any the process already had"),
        Metric(endName, unit: .count, kind: .event, heading: "threads (end)"),
    ]

    public private(set) var last: Int?
    public private(set) var peak: Int?

    public init() {}

    /// Reads the count now; where it cannot be read nothing is recorded, never a 0.
    public func observe() {
        guard let threads = processThreadCount() else { return }
        last = threads
        peak = max(peak ?? 0, threads)
    }

    /// The figures of what was observed: none when nothing could be read.
    public var figures: [String: WorkloadMetric] {
        guard let last, let peak else { return [:] }
        return [
            Self.endName: WorkloadMetric(Double(last), unit: .count),
            Self.peakName: WorkloadMetric(Double(peak), unit: .count),
        ]
    }
}

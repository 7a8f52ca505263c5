/// What one unit of a metric is, per operation. The raw value is how results files spell it
/// (a workload's own figures have carried these spellings since before units were typed).
public enum MetricUnit: String, Sendable, Codable, CaseIterable {
    case nanoseconds = "ns"
    case cycles
    case bytes
    case allocations
    /// Occurrences of something the metric's name says (switches, faults, system calls, misses,
    /// instructions).
    case events
    /// A fraction of a fair share (fairness: 1 is exactly fair).
    case share
    /// A plain number of things (holders at once).
    case count
    /// Iterations of a loop (apply's iterations per body call).
    case iterations
    /// A multiple of something (an injected slowdown).
    case factor

    /// How a threshold or a change in this unit reads: "+3 ns", "+16 bytes", "+0.2 per op".
    public var thresholdSpelling: String {
        switch self {
        case .nanoseconds: "ns"
        case .cycles: "cycles"
        case .bytes: "bytes"
        case .allocations: "allocations"
        case .events, .share, .count, .iterations, .factor: "per op"
        }
    }

    /// JMH's spelling of the unit per operation: time in ns/op, bytes in B/op, anything counted in #/op.
    public var jmhSpelling: String {
        switch self {
        case .nanoseconds: "ns/op"
        case .bytes: "B/op"
        case .cycles, .allocations, .events, .share, .count, .iterations, .factor: "#/op"
        }
    }
}

extension MetricUnit: CustomStringConvertible {
    /// The results file's spelling ("ns", "bytes"), as text interpolation shows it.
    public var description: String { rawValue }
}

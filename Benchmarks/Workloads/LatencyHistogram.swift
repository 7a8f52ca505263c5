import Harness
import Results
import Histogram

/// Latencies in nanoseconds, kept by one thread at a time in an HdrHistogram: fixed memory
/// allocated up front, so recording one is a few arithmetic operations and an increment, with no
/// allocation on the measured path, and percentiles keep three significant digits at any size.
///
/// Not thread-safe: each recording thread owns one (a ping-pong side, the notify queue) and the
/// measuring thread reads or resets it only while that thread is idle, after a hand-off that
/// orders the two (a round's end, a notify's wake-up). Several are combined with `merged`.
struct LatencyHistogram {
    /// The largest latency kept as itself: a minute, above any deadline of the suite. Longer
    /// ones are recorded as a minute (they only ever raise a high percentile, which is then
    /// visibly absurd), instead of being dropped, which would make the tail look better.
    static let highestTrackable: UInt64 = 60_000_000_000

    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: highestTrackable,
        numberOfSignificantValueDigits: .three)

    /// How many latencies are kept.
    var count: UInt64 { histogram.totalCount }

    /// Keeps one latency. A negative one (a clock read on another CPU a few nanoseconds behind)
    /// counts as zero.
    mutating func record(nanoseconds: Int64) {
        histogram.record(Swift.min(UInt64(Swift.max(0, nanoseconds)), Self.highestTrackable))
    }

    mutating func reset() { histogram.reset() }

    /// These latencies and `other`'s together.
    func merged(with other: LatencyHistogram) -> LatencyHistogram {
        var sum = self
        sum.histogram.add(other.histogram)
        return sum
    }

    /// `<prefix>.p50` and `<prefix>.p99` in ns, or nothing when no latency was kept (a case that
    /// never reached its samples).
    func percentileMetrics(prefix: String) -> [String: WorkloadMetric] {
        guard count > 0 else { return [:] }
        return [
            "\(prefix).p50": WorkloadMetric(Double(histogram.valueAtPercentile(50)), unit: .nanoseconds),
            "\(prefix).p99": WorkloadMetric(Double(histogram.valueAtPercentile(99)), unit: .nanoseconds),
        ]
    }
}

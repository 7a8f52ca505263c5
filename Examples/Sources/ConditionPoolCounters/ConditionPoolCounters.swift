import ConditionPool
import Counters
import Results

/// ConditionPool's own events as a counter source: how often its workers went to sleep for want
/// of work, per operation, in every report and export beside the built-in counters. On any other
/// backend it is unavailable, with the reason, rather than a zero that was never counted.
public final class ConditionPoolCounters: CounterSource {
    static let sleeps = "condition-pool.sleeps"

    public static let catalogue = [
        Metric(
            sleeps, unit: .events, kind: .event, heading: "pool sleeps/op",
            note: "times a condition-pool worker waited on its condition variable for want of work")
    ]

    public let id = "condition-pool"
    public let availability: [String: Availability]
    public let metrics: [String]

    public convenience init() { self.init(backend: nil) }

    public init(backend: String?) {
        let counts = backend == ConditionPool.id
        availability = [
            Self.sleeps: counts
                ? .available
                : .unavailable(reason: "counts condition-pool's workers; this case runs on \(backend ?? "no backend")")
        ]
        metrics = counts ? [Self.sleeps] : []
    }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        if !metrics.isEmpty { slots[0] = Double(ConditionPool.sleeps.load(ordering: .relaxed)) }
    }
}

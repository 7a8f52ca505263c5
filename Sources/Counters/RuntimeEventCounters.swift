import PThreadPrimitives
import Results
import RuntimeKit

/// Our backends' own scheduling events (`RuntimeEvent`: steals, parks, sync's fast and slow
/// paths, node reuse, ...), counted per thread by the backends themselves (`RuntimeEvents`) and
/// summed at each read. Opened for one case's backend: an event that backend does not count is
/// unavailable with the reason, never a 0.
public final class RuntimeEventCounters: CounterSource {
    public let id = "runtime-events"
    public let availability: [String: Availability]
    /// The events this backend counts, in `read(into:)`'s order.
    private let counted: [RuntimeEvent]
    /// Every event's total, written by each read; allocated once, so reading never allocates.
    private let totals = UnsafeMutablePointer<UInt64>.allocate(capacity: RuntimeEvent.count)

    public static let catalogue: [Metric] = RuntimeEvent.allCases.map { event in
        Metric(
            event.metricName, unit: .events, kind: .event, heading: event.name + "/op",
            tableColumn: event == .steals || event == .parks || event == .syncSlow,
            note: "counted by \(event.countedBy.joined(separator: " and ")) itself, on every thread (RuntimeEvent)")
    }

    public convenience init() { self.init(backend: nil) }

    public init(backend: String?) {
        counted = RuntimeEvent.allCases.filter { backend.map($0.countedBy.contains) ?? false }
        availability = Dictionary(
            uniqueKeysWithValues: RuntimeEvent.allCases.map { event in
                let reason: String?
                if let backend, event.countedBy.contains(backend) {
                    reason = nil
                } else if backend == nil || backend == BenchmarkCase.noBackend {
                    reason = "the case uses no backend"
                } else if RuntimeEvent.countingBackends.contains(backend!) {
                    reason = "\(backend!) has no such event (\(event.countedBy.joined(separator: " and ")) counts it)"
                } else {
                    reason = "\(backend!) does not count its own scheduling events (only our own backends do)"
                }
                return (event.metricName, Availability(unavailableBecause: reason))
            })
    }

    deinit { totals.deallocate() }

    public var metrics: [String] { counted.map(\.metricName) }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        guard !counted.isEmpty else { return }
        RuntimeEvents.read(into: totals)
        for (slot, event) in counted.enumerated() { slots[slot] = Double(totals[event.rawValue]) }
    }
}

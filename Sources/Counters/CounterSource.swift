import Results

/// A source of cumulative counters (perf events, rusage, jemalloc, ...). It is opened once, in the
/// child, before the runtime under test creates any thread, and read around every sample; the
/// harness keeps differences between readings, never absolute values. A `SendableMetatype`: the
/// registry (`CounterSet.all`) is a global list of the types themselves.
public protocol CounterSource: AnyObject, SendableMetatype {
    /// Opens the source's counters; what cannot be opened is in `availability`, with the reason.
    init()
    /// Opens the source's counters for a case on `backend` (its id; nil when the case uses none):
    /// a source that counts one runtime's events says it is unavailable on the others. Defaults
    /// to `init()`.
    init(backend: String?)
    /// Every metric this source can report, described (unit, kind, heading), whether or not it
    /// can be measured here: the results file carries these, and the gate and the report read them.
    static var catalogue: [Metric] { get }
    /// Short name for reports: "perf_event", "rusage", "jemalloc", "syscalls".
    var id: String { get }
    /// Every metric this source knows, each available here, or unavailable with the reason ("no
    /// PMU", "kernel events excluded (perf_event_paranoid 2, not root)", ...).
    var availability: [String: Availability] { get }
    /// The available metrics, in the order `read(into:)` writes them.
    var metrics: [String] { get }
    /// Writes the current cumulative value of each of `metrics` into `slots`, NaN where a read
    /// failed. Must not allocate: it runs on the measuring thread, between timed batches, where the
    /// jemalloc counters would count its allocations as the workload's.
    func read(into slots: UnsafeMutableBufferPointer<Double>)
}

extension CounterSource {
    public init(backend: String?) { self.init() }

    public var unavailable: [String: String] { availability.compactMapValues(\.reason) }

    /// A dictionary snapshot, for tools and tests (allocates: never between samples).
    public func read() -> [String: Double] {
        let slots = UnsafeMutableBufferPointer<Double>.allocate(capacity: metrics.count)
        defer { slots.deallocate() }
        read(into: slots)
        var values: [String: Double] = [:]
        for (slot, name) in metrics.enumerated() where !slots[slot].isNaN { values[name] = slots[slot] }
        return values
    }
}

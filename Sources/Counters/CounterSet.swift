import Results

/// Every counter source, opened in the order that makes them count what they should: perf events
/// first (with inherit, they count only threads created after they are opened), so the child
/// opens a CounterSet before it builds the runtime under test.
public final class CounterSet {
    public let sources: [any CounterSource]
    /// How many slots each source writes, fixed once its counters are open. Read per sample from
    /// here, not from `metrics`: two sources compute `metrics` as a new array, and those
    /// allocations would land between jemalloc's two reads of every sample and be counted as the
    /// workload's (README.md, "Accuracy").
    private let slotCounts: [Int]

    /// Every source of the process, in opening order: perf events first. A new source is one file
    /// and one entry here. The backend's own events (`RuntimeEventCounters`) come last, opened for
    /// the case's backend.
    static let registered: [any CounterSource.Type] = [
        PerfEventCounters.self, SyscallCounters.self, RUsageCounters.self, JemallocCounters.self, InterposerCounters.self,
    ]

    /// Every metric any source can report, described: what results.json carries (`RunResults.metrics`).
    public static let catalogue: [Metric] = registered.flatMap { $0.catalogue } + RuntimeEventCounters.catalogue

    /// - Parameters:
    ///   - backend: the case's backend `id` (`BenchmarkCase.noBackend` or nil when none): whose
    ///     scheduling events the `events.` metrics read.
    ///   - events: the events the run asked for by name (`--events`), counted as `event.NAME`.
    public init(backend: String? = nil, events: [String] = []) {
        sources = Self.registered.map { $0.init() } + [RuntimeEventCounters(backend: backend)]
            + (events.isEmpty ? [] : [RequestedEventCounters(events: events)])
        slotCounts = sources.map(\.metrics.count)
    }

    /// Metric → available here, or unavailable with the reason.
    public var availability: [String: Availability] {
        sources.reduce(into: [:]) { all, source in all.merge(source.availability) { first, _ in first } }
    }

    /// Metric → reason, for the metrics that cannot be measured here.
    public var unavailable: [String: String] { availability.compactMapValues(\.reason) }

    /// Every available metric, in the order `read(into:)` writes them.
    public var names: [String] { sources.flatMap(\.metrics) }

    /// Writes every source's values into consecutive slots, without allocating.
    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        var start = 0
        for (source, count) in zip(sources, slotCounts) {
            source.read(into: UnsafeMutableBufferPointer(rebasing: slots[start..<(start + count)]))
            start += count
        }
    }

    /// A dictionary snapshot, for tools and tests (allocates).
    public func read() -> [String: Double] {
        sources.reduce(into: [:]) { all, source in all.merge(source.read()) { first, _ in first } }
    }
}

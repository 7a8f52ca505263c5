import PThreadPrimitives
import Results
import RuntimeKit

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

    /// This package's sources, in opening order: perf events first. A new one is one file and one
    /// entry here. The backend's own events (`RuntimeEventCounters`) come after every source,
    /// opened for the case's backend. `SyscallCounters` opens its tracepoint only when the child's
    /// request names it (`--events syscalls`, or a case whose count a claim reads), because the
    /// tracepoint slows every system call of the measured process (README.md, "Accuracy").
    static let builtIn: [any CounterSource.Type] = [
        PerfEventCounters.self, SyscallCounters.self, RUsageCounters.self, RunDelayCounters.self,
        JemallocCounters.self, InterposerCounters.self,
        RuntimeEventCounters.self,
    ]

    /// Written by `register`, once before anything reads it; a pthread mutex because
    /// ThreadSanitizer does not see `Synchronization.Mutex`'s lock.
    private static let lock = PThreadMutex()
    nonisolated(unsafe) private static var registered: [any CounterSource.Type] = []

    /// Every source, built in then registered, in opening order.
    public static var all: [any CounterSource.Type] { builtIn + lock.withLock { registered } }

    /// Every metric any source can report, described: what results.json carries (`RunResults.metrics`).
    public static var catalogue: [Metric] { all.flatMap { $0.catalogue } }

    /// Adds another package's counter sources after the built-in ones (and opens them after them,
    /// so perf events still count every thread). A type registered twice, or a metric another
    /// source already reports, is refused naming both: one name would then carry two meanings.
    public static func register(_ sources: [any CounterSource.Type]) throws(RegistrationError) {
        try lock.withLock { () throws(RegistrationError) in
            var known = builtIn + registered
            for source in sources {
                if known.contains(where: { $0 == source }) { throw .registeredTwice(type: "\(source)") }
                for metric in source.catalogue {
                    if let other = known.first(where: { $0.catalogue.contains { $0.name == metric.name } }) {
                        throw .duplicateMetric(name: metric.name, type: "\(source)", other: "\(other)")
                    }
                }
                known.append(source)
            }
            registered = Array(known.dropFirst(builtIn.count))
        }
    }

    /// - Parameters:
    ///   - backend: the case's backend `id` (`BenchmarkCase.noBackend` or nil when none): whose
    ///     scheduling events the `events.` metrics read.
    ///   - events: the events the run asked for by name (`--events`), counted as `event.NAME`.
    ///   With `SyscallCounters.eventName` among them, system calls are counted too.
    public init(backend: String? = nil, events: [String] = []) {
        let countsSyscalls = events.contains(SyscallCounters.eventName)
        let named = events.filter { $0 != SyscallCounters.eventName }
        sources =
            Self.all.map {
                $0 == SyscallCounters.self ? SyscallCounters(asked: countsSyscalls) : $0.init(backend: backend)
            }
            + (named.isEmpty ? [] : [RequestedEventCounters(events: named)])
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

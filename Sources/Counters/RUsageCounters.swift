#if canImport(Glibc)
import Glibc
#endif

import Results

/// `getrusage(RUSAGE_SELF)`: the whole process, every thread, always available. Context switches
/// come from here when perf may not count kernel events.
public final class RUsageCounters: CounterSource {
    public let id = "rusage"
    public let availability: [String: Availability] = Dictionary(
        uniqueKeysWithValues: RUsageCounters.names.map { ($0, .available) })

    /// In the order `read(into:)` writes them.
    public static let catalogue = [
        Metric("rusage.voluntary-switches", unit: .events, kind: .event, heading: "voluntary switches/op"),
        Metric("rusage.involuntary-switches", unit: .events, kind: .event, heading: "involuntary switches/op"),
        Metric("rusage.minor-faults", unit: .events, kind: .event, heading: "minor faults/op"),
        Metric("rusage.major-faults", unit: .events, kind: .event, heading: "major faults/op"),
        Metric("rusage.user-cpu-ns", unit: .nanoseconds, kind: .cpu, heading: "user CPU ns/op"),
        Metric("rusage.system-cpu-ns", unit: .nanoseconds, kind: .cpu, heading: "system CPU ns/op"),
    ]
    static let names = catalogue.map(\.name)

    public init() {}

    public var metrics: [String] { Self.names }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else {
            for slot in slots.indices { slots[slot] = .nan }
            return
        }
        func ns(_ time: timeval) -> Double { Double(time.tv_sec) * 1e9 + Double(time.tv_usec) * 1e3 }
        // Same order as `names`.
        slots[0] = Double(usage.ru_nvcsw)
        slots[1] = Double(usage.ru_nivcsw)
        slots[2] = Double(usage.ru_minflt)
        slots[3] = Double(usage.ru_majflt)
        slots[4] = ns(usage.ru_utime)
        slots[5] = ns(usage.ru_stime)
    }
}

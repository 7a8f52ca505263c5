#if canImport(Glibc)
import Glibc
#endif

/// `getrusage(RUSAGE_SELF)`: the whole process, every thread, always available. Context switches
/// come from here when perf may not count kernel events.
public final class RUsageCounters: CounterSource {
    public let id = "rusage"
    public let availability: [String: String?] = Dictionary(uniqueKeysWithValues: RUsageCounters.names.map { ($0, nil) })

    static let names = ["rusage.voluntary-switches", "rusage.involuntary-switches", "rusage.minor-faults",
                        "rusage.major-faults", "rusage.user-cpu-ns", "rusage.system-cpu-ns"]

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

import CPerfEvent
import Results
#if canImport(Glibc)
import Glibc
#endif

/// Software and hardware events through `perf_event_open`, one descriptor per event (inherit
/// forbids event groups), opened with `inherit` so worker threads created later are counted.
/// Counts are scaled by time enabled / time running when the kernel multiplexed them.
public final class PerfEventCounters: CounterSource {
    public let id = "perf_event"

    struct Event {
        let metric: Metric
        let type: UInt32
        let config: UInt64
        /// Counted only in the kernel: with kernel events excluded it would read 0, so it is
        /// reported unavailable instead.
        let kernelOnly: Bool

        var name: String { metric.name }
    }

    static let events: [Event] = [
        Event(
            metric: Metric("task-clock", unit: .nanoseconds, kind: .cpu, heading: "CPU ns/op", tableColumn: true),
            type: UInt32(RB_PERF_TYPE_SOFTWARE), config: UInt64(RB_PERF_COUNT_SW_TASK_CLOCK), kernelOnly: false),
        Event(
            metric: Metric(
                "context-switches", unit: .events, kind: .event, heading: "context switches/op", tableColumn: true),
            type: UInt32(RB_PERF_TYPE_SOFTWARE), config: UInt64(RB_PERF_COUNT_SW_CONTEXT_SWITCHES), kernelOnly: true),
        Event(
            metric: Metric("cpu-migrations", unit: .events, kind: .event, heading: "CPU migrations/op"),
            type: UInt32(RB_PERF_TYPE_SOFTWARE), config: UInt64(RB_PERF_COUNT_SW_CPU_MIGRATIONS), kernelOnly: true),
        Event(
            metric: Metric("page-faults", unit: .events, kind: .event, heading: "page faults/op", tableColumn: true),
            type: UInt32(RB_PERF_TYPE_SOFTWARE), config: UInt64(RB_PERF_COUNT_SW_PAGE_FAULTS), kernelOnly: false),
        Event(
            metric: Metric("cycles", unit: .cycles, kind: .cpu, heading: "cycles/op", tableColumn: true),
            type: UInt32(RB_PERF_TYPE_HARDWARE), config: UInt64(RB_PERF_COUNT_HW_CPU_CYCLES), kernelOnly: false),
        // Instructions do not depend on timing (where no spin loop waits): a count, gated tightly.
        Event(
            metric: Metric("instructions", unit: .events, kind: .count, heading: "instructions/op", tableColumn: true),
            type: UInt32(RB_PERF_TYPE_HARDWARE), config: UInt64(RB_PERF_COUNT_HW_INSTRUCTIONS), kernelOnly: false),
        Event(
            metric: Metric("cache-misses", unit: .events, kind: .event, heading: "cache misses/op"),
            type: UInt32(RB_PERF_TYPE_HARDWARE), config: UInt64(RB_PERF_COUNT_HW_CACHE_MISSES), kernelOnly: false),
        Event(
            metric: Metric("branch-misses", unit: .events, kind: .event, heading: "branch misses/op"),
            type: UInt32(RB_PERF_TYPE_HARDWARE), config: UInt64(RB_PERF_COUNT_HW_BRANCH_MISSES), kernelOnly: false),
    ]

    public static var catalogue: [Metric] { events.map(\.metric) }

    public private(set) var availability: [String: Availability] = [:]
    private var open: [(name: String, fd: Int32)] = []

    /// What a user has instead of a kernel-only event when kernel events are excluded.
    static func withoutKernelEvents(_ name: String) -> String {
        name == "context-switches"
            ? "rusage.voluntary-switches and rusage.involuntary-switches count them instead"
            : "nothing else counts them: run as root, or set kernel.perf_event_paranoid to 1 or lower"
    }

    public init() {
        let paranoid = PerfEventCounters.paranoidLevel()
        let excludeKernel = Self.excludesKernel(paranoid: paranoid)
        for event in Self.events {
            if excludeKernel && event.kernelOnly {
                availability[event.name] = .unavailable(
                    reason: "kernel events excluded "
                        + "(perf_event_paranoid \(paranoid.map(String.init) ?? "unknown"), not root); "
                        + Self.withoutKernelEvents(event.name))
                continue
            }
            let fd = rb_perf_event_open(event.type, event.config, excludeKernel ? 1 : 0)
            if fd >= 0 {
                open.append((event.name, fd))
                availability[event.name] = .available
            } else {
                availability[event.name] = .unavailable(
                    reason: Self.reason(
                        errno: -fd, hardware: event.type == UInt32(RB_PERF_TYPE_HARDWARE), paranoid: paranoid))
            }
        }
    }

    deinit { for event in open { close(event.fd) } }

    public var metrics: [String] { open.map(\.name) }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        for (slot, event) in open.enumerated() { slots[slot] = Self.scaledValue(event.fd) }
    }

    /// An open event's count, NaN when it cannot be read. Multiplexed (it counted only `running`
    /// of `enabled` ns), extrapolated to the whole time.
    static func scaledValue(_ fd: Int32) -> Double {
        var value: UInt64 = 0, enabled: UInt64 = 0, running: UInt64 = 0
        guard rb_perf_event_read(fd, &value, &enabled, &running) == 0, running > 0 else { return .nan }
        return running < enabled ? Double(value) * Double(enabled) / Double(running) : Double(value)
    }

    static func reason(errno code: Int32, hardware: Bool, paranoid: Int?) -> String {
        let system = String(cString: strerror(code))
        switch code {
        case ENOENT, EOPNOTSUPP, ENODEV:
            return hardware
                ? "no PMU: this CPU or VM exposes no hardware counters (perf_event_open: \(system))"
                : "not supported by this kernel (perf_event_open: \(system))"
        case EACCES, EPERM:
            return "not permitted (perf_event_paranoid \(paranoid.map(String.init) ?? "unknown"), "
                + "\(geteuid() == 0 ? "root" : "not root"); perf_event_open: \(system))"
        case ENOSYS:
            return "kernel built without perf events (perf_event_open: \(system))"
        default:
            return "perf_event_open: \(system)"
        }
    }

    /// As root every event may include the kernel. Otherwise, from paranoid level 2 on (or when
    /// the level cannot be read), the kernel refuses events that count kernel activity, so they
    /// are excluded up front.
    static func excludesKernel(paranoid: Int?) -> Bool { geteuid() != 0 && (paranoid ?? 2) >= 2 }

    /// /proc/sys/kernel/perf_event_paranoid, or nil when unreadable.
    static func paranoidLevel() -> Int? {
        guard let file = fopen("/proc/sys/kernel/perf_event_paranoid", "r") else { return nil }
        defer { fclose(file) }
        var level: Int32 = 0
        return withUnsafeMutablePointer(to: &level) { fscanfInt(file, $0) } ? Int(level) : nil
    }
}

/// Reads one decimal integer from `file`.
func fscanfInt(_ file: UnsafeMutablePointer<FILE>, _ value: UnsafeMutablePointer<Int32>) -> Bool {
    var buffer = [CChar](repeating: 0, count: 32)
    guard fgets(&buffer, 32, file) != nil,
        let parsed = Int32(
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).filter {
                !$0.isWhitespace
            })
    else { return false }
    value.pointee = parsed
    return true
}

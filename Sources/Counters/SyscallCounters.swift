import CPerfEvent
import Results
#if canImport(Glibc)
import Glibc
#endif

/// System calls entered by the process (every thread created after opening), through the
/// `raw_syscalls:sys_enter` tracepoint: what the claim "locks always require an expensive kernel
/// trap" needs. Tracepoints need root (or a permissive perf_event_paranoid) and tracefs.
public final class SyscallCounters: CounterSource {
    public let id = "syscalls"
    public let availability: [String: Availability]
    /// Why the tracepoint could not be opened; nil when it was.
    public let problem: Problem?
    private let fd: Int32?

    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        /// No tracefs under /sys/kernel: mounting it (as root) is the remedy.
        case tracepointNotVisible
        /// Found but refused, with the error.
        case cannotOpen(errno: Int32)

        public var description: String {
            switch self {
            case .tracepointNotVisible:
                "the raw_syscalls:sys_enter tracepoint is not visible (tracefs not mounted, or not root)"
            case .cannotOpen(let errno):
                "cannot open the raw_syscalls:sys_enter tracepoint (\(String(cString: strerror(errno))); "
                    + "needs root or perf_event_paranoid -1)"
            }
        }
    }

    /// The name a run asks for it by (`--events syscalls`).
    public static let eventName = "syscalls"

    /// Why it reads nothing where the run did not ask for it: the tracepoint is not free. Every
    /// system call of every counted thread passes through it: on the AMD development VM
    /// (2026-11-28) a `getppid()` took 167 ns alone and 297 ns with the tracepoint counted, and a
    /// pthread_create + join 34 µs alone, 43 µs with perf's four software events and 56 to 65 µs
    /// with the tracepoint as well (tools/c-reference/direct-ops.c under `perf stat`).
    static let notAsked =
        "not counted: ask with --events syscalls (its tracepoint adds about 130 ns to every system "
        + "call of the measured process, so a run counts them only for the claims that need them, or when asked)"

    public static let catalogue = [
        Metric(eventName, unit: .events, kind: .event, heading: "syscalls/op", tableColumn: true)
    ]

    static let idFiles = [
        "/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
        "/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id",
    ]

    /// Opens the tracepoint.
    public convenience init() { self.init(asked: true) }

    /// Opens the tracepoint only when `asked` (the child's request names `eventName`); otherwise
    /// counts nothing and says why (`notAsked`).
    init(asked: Bool) {
        guard asked else {
            fd = nil
            problem = nil
            availability = [Self.eventName: Availability(unavailableBecause: Self.notAsked)]
            return
        }
        if let tracepoint = Self.idFiles.lazy.compactMap(Self.readID).first {
            let opened = rb_perf_event_open(UInt32(RB_PERF_TYPE_TRACEPOINT), tracepoint, 0)
            fd = opened >= 0 ? opened : nil
            problem = opened >= 0 ? nil : .cannotOpen(errno: -opened)
        } else {
            fd = nil
            problem = .tracepointNotVisible
        }
        availability = [Self.eventName: Availability(unavailableBecause: problem?.description)]
    }

    deinit { if let fd { close(fd) } }

    public var metrics: [String] { fd == nil ? [] : [Self.eventName] }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        guard let fd else { return }
        var value: UInt64 = 0, enabled: UInt64 = 0, running: UInt64 = 0
        slots[0] = rb_perf_event_read(fd, &value, &enabled, &running) == 0 ? Double(value) : .nan
    }

    private static func readID(_ path: String) -> UInt64? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 32)
        guard fgets(&buffer, 32, file) != nil else { return nil }
        return UInt64(
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).filter {
                !$0.isWhitespace
            })
    }
}

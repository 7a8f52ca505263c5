#if canImport(Glibc)
import Glibc
#endif
import RuntimeKit

/// An unnamed POSIX semaphore (`sem_t`, process-private): the "traditional system semaphore" the
/// guide compares dispatch semaphores with. glibc's takes its fast path in user space too (an
/// atomic on the value) and enters the kernel (futex) only to block or to wake a waiter.
///
/// Timed waits measure the deadline on CLOCK_MONOTONIC with `sem_clockwait` (glibc 2.30 and
/// later), looked up at run time because Swift's Glibc module does not declare it (it is a GNU
/// extension); without it they fall back to `sem_timedwait`, whose deadline is on CLOCK_REALTIME,
/// so a wall-clock jump can then stretch or cut one timed wait.
///
/// `signal()` always returns false: `sem_post` does not say whether it woke a waiter (glibc's
/// `sem_getvalue` reports 0, not a negative count, while threads wait), so this semaphore never
/// claims a wake-up it cannot know about. No workload relies on the answer for this kind;
/// `TokenSemaphore` keeps its own count for that.
public final class POSIXSemaphore: CountingSemaphore, @unchecked Sendable {
    /// At a stable heap address: a `sem_t` must not move once initialised.
    private let raw: UnsafeMutablePointer<sem_t>

    /// - Precondition: `0 <= value <= SEM_VALUE_MAX`.
    public init(value: Int) {
        precondition(
            value >= 0 && value <= Int(Int32.max),
            "a POSIX semaphore starts with 0 to SEM_VALUE_MAX permits, got \(value)")
        raw = .allocate(capacity: 1)
        let rc = sem_init(raw, 0, UInt32(value))
        precondition(rc == 0, "sem_init failed: errno \(errno)")
    }

    deinit {
        sem_destroy(raw)
        raw.deallocate()
    }

    public func wait() {
        while sem_wait(raw) != 0 {
            precondition(errno == EINTR, "sem_wait failed: errno \(errno)")  // a signal handler ran: wait again
        }
    }

    public func wait(timeout: Duration) -> WaitResult {
        let monotonic = Self.clockWait != nil
        let nanoseconds = Self.now(monotonic: monotonic).addingReportingOverflow(timeout.nanosecondsSaturating)
        var deadline = Self.timespec(nanoseconds: nanoseconds.overflow ? Int64.max : nanoseconds.partialValue)
        while true {
            let rc =
                if let clockWait = Self.clockWait {
                    clockWait(raw, CLOCK_MONOTONIC, &deadline)
                } else {
                    sem_timedwait(raw, &deadline)
                }
            if rc == 0 { return .success }
            switch errno {
            case EINTR: continue
            case ETIMEDOUT: return .timedOut
            default: preconditionFailure("sem_timedwait/sem_clockwait failed: errno \(errno)")
            }
        }
    }

    /// Takes a permit if one is free now; never blocks.
    public func tryWait() -> Bool {
        while sem_trywait(raw) != 0 {
            if errno == EAGAIN { return false }
            precondition(errno == EINTR, "sem_trywait failed: errno \(errno)")
        }
        return true
    }

    @discardableResult
    public func signal() -> Bool {
        let rc = sem_post(raw)
        precondition(rc == 0, "sem_post failed: errno \(errno) (more than SEM_VALUE_MAX permits?)")
        return false
    }

    private typealias ClockWait =
        @convention(c) (UnsafeMutablePointer<sem_t>, clockid_t, UnsafePointer<Glibc.timespec>) -> Int32

    /// glibc's `sem_clockwait`, or nil when this C library has none. A null handle is
    /// `RTLD_DEFAULT`: the symbol as the program's own calls would find it.
    private static let clockWait: ClockWait? = dlsym(nil, "sem_clockwait").map { unsafeBitCast($0, to: ClockWait.self) }

    private static func now(monotonic: Bool) -> Int64 {
        if monotonic { return MonotonicInstant.now.nanoseconds }
        var spec = Glibc.timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    private static func timespec(nanoseconds: Int64) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}

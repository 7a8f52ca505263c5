import CFutex
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A 32-bit atomic word that threads can sleep on: the kernel's futex. Waiting re-checks the word
/// inside the kernel, so a wake that happens between a thread's last look and its sleep is never
/// lost: the sleep returns at once because the word changed.
///
/// The word lives in its own allocation: futex needs a stable address, and `Atomic` stored in a
/// class has none that Swift promises.
@usableFromInline
final class Futex: @unchecked Sendable {
    @usableFromInline
    let word: UnsafeMutablePointer<Atomic<UInt32>>

    init(_ value: UInt32 = 0) {
        word = .allocate(capacity: 1)
        word.initialize(to: Atomic(value))
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    private var address: UnsafeMutablePointer<UInt32> {
        UnsafeMutableRawPointer(word).assumingMemoryBound(to: UInt32.self)
    }

    /// Sleeps while the word equals `expected`, until `wake`, the deadline or a spurious return.
    /// Returns false only when the deadline passed.
    func wait(expected: UInt32, until deadline: Deadline = .never) -> Bool {
        Self.wait(on: address, expected: expected, until: deadline)
    }

    /// Wakes up to `count` sleepers.
    func wake(_ count: Int32 = 1) {
        Self.wake(on: address, count)
    }

    /// `wait` on any 32-bit word (a half of a larger atomic, as the group's generation is).
    static func wait(on address: UnsafeMutablePointer<UInt32>, expected: UInt32, until deadline: Deadline) -> Bool {
        rb_futex_wait(address, expected, deadline.nanoseconds, deadline.isWallClock ? 1 : 0) != ETIMEDOUT
    }

    static func wake(on address: UnsafeMutablePointer<UInt32>, _ count: Int32) {
        _ = rb_futex_wake(address, count)
    }

    func wakeAll() { wake(Int32.max) }
}

/// When a wait gives up: never, at a point on the monotonic clock, or at a point on the wall clock
/// (`dispatch_walltime`: follows changes to the system time).
public struct Deadline: Sendable, Equatable {
    /// Nanoseconds since the clock's epoch; negative for "never".
    let nanoseconds: Int64
    let isWallClock: Bool

    public static var never: Deadline { Deadline(nanoseconds: -1, isWallClock: false) }

    /// `timeout` from now on the monotonic clock; zero or negative means now (`isImmediate`), huge
    /// saturates to never.
    public static func after(_ timeout: Duration) -> Deadline {
        Deadline(nanoseconds: Self.nanoseconds(on: CLOCK_MONOTONIC, after: timeout), isWallClock: false)
    }

    /// `timeout` from now on the wall clock (CLOCK_REALTIME).
    public static func wallClock(after timeout: Duration) -> Deadline {
        Deadline(nanoseconds: Self.nanoseconds(on: CLOCK_REALTIME, after: timeout), isWallClock: true)
    }

    var isNever: Bool { nanoseconds < 0 }

    /// Made from a timeout of zero or less (the clock's epoch, long past): a try-wait, which
    /// looks once and never polls. Telling it costs no clock read, unlike `hasPassed`.
    var isImmediate: Bool { nanoseconds == 0 }

    var hasPassed: Bool {
        !isNever && Self.now(isWallClock ? CLOCK_REALTIME : CLOCK_MONOTONIC) >= nanoseconds
    }

    private static func now(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// `clock`'s now plus `timeout`: the epoch (0, `isImmediate`) for a timeout of zero or less,
    /// without reading the clock; -1 (never) where the sum would overflow.
    private static func nanoseconds(on clock: clockid_t, after timeout: Duration) -> Int64 {
        if timeout <= .zero { return 0 }
        let (seconds, attoseconds) = timeout.components
        if seconds > Int64.max / 1_000_000_000 - 1 { return -1 }
        let sum = now(clock).addingReportingOverflow(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return sum.overflow ? -1 : sum.partialValue
    }
}

import PThreadPrimitives
import RuntimeKit
import Synchronization

/// A counting semaphore whose uncontended `wait` and `signal` are one atomic add each; the kernel
/// (a futex) is entered only by a thread that must block, and by a `signal` that finds one asleep.
///
/// `value` goes negative while threads wait: `-value` threads are committed to a wake-up. A
/// `signal` that finds `value < 0` posts one wake-up token (`wakeups += 1`) and, if a waiter is
/// asleep, wakes it. A waiter takes a token to return. A waiter whose deadline passes tries to
/// give its place back (`value += 1` while `value < 0`); if `value` is no longer negative, a
/// signal already counted it and its token is on the way, so it takes that token and succeeds:
/// a timed-out waiter never steals a later signal, and no token is ever left behind. The README
/// beside this file walks through the races.
public final class FIFOSemaphore: CountingSemaphore, @unchecked Sendable {
    @usableFromInline let value: Atomic<Int>
    /// Wake-up tokens posted to waiters; the futex word waiters sleep on.
    private let wakeups = Futex(0)
    /// Waiters asleep (or about to be) in the kernel: a signal skips the futex call when zero.
    private let sleepers = Atomic<Int>(0)
    private let pool: Unmanaged<WorkerPool>

    /// How long a waiter polls for a token before sleeping: a hand-off between two threads on two
    /// cores takes well under a microsecond this way (the futex path takes tens), but on a machine
    /// with more busy threads than CPUs the poll would take the signaller's CPU (`SpinBudget`).
    private let spin = SpinBudget()
    /// Who signalled a waiter last, and from which CPU: a waiter on that CPU yields soon.
    private let signaller = LastSignaller()
    /// Whether its waits out of the count are a lock's or a hand-off's: how often they look.
    private let use = LockOrHandOff()

    /// - Precondition: `value >= 0`.
    init(value: Int, pool: WorkerPool) {
        precondition(value >= 0, "a semaphore starts with zero or more permits, got \(value)")
        self.value = Atomic(value)
        self.pool = Unmanaged.passUnretained(pool)
    }

    @inlinable
    public func wait() {
        if value.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue >= 0 { return }
        _ = waitContended(until: .never)
    }

    @inlinable
    public func wait(timeout: Duration) -> WaitResult {
        if value.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue >= 0 { return .success }
        return waitContended(until: .after(timeout))
    }

    /// `wait` until a point on the wall clock (`dispatch_walltime`).
    public func wait(until deadline: Deadline) -> WaitResult {
        if value.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue >= 0 { return .success }
        return waitContended(until: deadline)
    }

    /// A wait that found no permit: a free permit out of the count (`pollOutOfCount`, README.md,
    /// "Semaphores"), else, counted, a token. A zero timeout (the try-wait idiom) gives the place
    /// back at once, as libdispatch's `DISPATCH_TIME_NOW` does: polling would keep the caller for
    /// the whole budget for nothing it asked for.
    @usableFromInline
    func waitContended(until deadline: Deadline) -> WaitResult {
        if deadline.isImmediate {
            // Leaves the count, or takes the token of the signal that counted this waiter first.
            return value.incrementIfNegative() ? .timedOut : sleepForToken(until: .never)
        }
        return value.pollOutOfCount(
            roundsPerLook: use.roundsPerLook(), signallerOnThisCPU: { signaller.sharesThisCPU })
            ? .success : waitForToken(until: deadline)
    }

    @inlinable
    @discardableResult
    public func signal() -> Bool {
        if value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 0 { return false }
        postToken()
        return true
    }

    @usableFromInline
    func postToken() {
        signaller.note()
        wakeups.word.pointee.add(1, ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
            wakeups.wake(1)
            SpinBudget.noteWokeSleeper()
        }
    }

    /// Takes a token, or gives the place back at the deadline.
    @usableFromInline
    func waitForToken(until deadline: Deadline) -> WaitResult {
        if spin.poll(until: takeToken, yieldingSoonIf: { signaller.isOnThisCPU }) { return .success }
        return pool._withUnsafeGuaranteedRef { $0.whileBlocking { sleepForToken(until: deadline) } }
    }

    /// The blocking part of `waitForToken`: sleeps on `wakeups` until a token or the deadline.
    private func sleepForToken(until deadline: Deadline) -> WaitResult {
        var deadline = deadline
        while true {
            if takeToken() { return .success }
            sleepers.add(1, ordering: .sequentiallyConsistent)
            let seen = wakeups.word.pointee.load(ordering: .sequentiallyConsistent)
            let woken = seen != 0 || wakeups.wait(expected: 0, until: deadline)
            sleepers.subtract(1, ordering: .sequentiallyConsistent)
            if !woken, !takeToken() {
                if value.incrementIfNegative() { return .timedOut }  // this waiter left the count
                // A signal counted this waiter before it could leave: its token is coming.
                deadline = .never
                continue
            }
            if !woken { return .success }
        }
    }

    private func takeToken() -> Bool {
        var tokens = wakeups.word.pointee.load(ordering: .relaxed)
        while tokens > 0 {
            let (done, current) = wakeups.word.pointee.compareExchange(
                expected: tokens, desired: tokens - 1, ordering: .acquiringAndReleasing)
            if done { return true }
            tokens = current
        }
        return false
    }
}

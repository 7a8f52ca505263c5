import RuntimeKit
import Synchronization

/// A counting semaphore whose uncontended `wait` and `signal` are one atomic add each, whose
/// waiters poll briefly (`SpinBudget`), and which blocks on a POSIX semaphore of wake-up tokens:
/// glibc's `sem_t` is a futex, so a hand-off to a sleeper is one system call on each side, where
/// the mutex + condition variable of `MutexSemaphore` takes the mutex again after every wake-up,
/// which oversubscribed hand-offs pay dearly for (README.md, "TokenSemaphore").
///
/// `value` goes negative while threads wait: `-value` threads are committed to a token. A
/// `signal` that finds `value < 0` posts one token (`sem_post`) and returns true: a waiter is
/// bound to take it. A waiter whose deadline passes tries to give its place back (`value += 1`
/// while `value < 0`); if `value` is no longer negative, a signal already counted it and its
/// token is posted or about to be, so it takes that token and succeeds: a timed-out waiter never
/// steals a later signal, and no token is left behind. (The same protocol as fifo-dispatch's
/// futex semaphore; Sources/FIFODispatch/README.md walks through its races.)
public final class TokenSemaphore: CountingSemaphore, @unchecked Sendable {
    private let value: Atomic<Int>
    private let tokens = POSIXSemaphore(value: 0)
    private let spin = SpinBudget()
    private let signaller = LastSignaller()
    private let use = LockOrHandOff()
    /// Waiters in (or about to enter) `tokens.wait`: a signal that finds one tells its own next
    /// poll to be a probe (`SpinBudget.noteWokeSleeper`). A hint, read relaxed.
    private let sleepers = Atomic<Int>(0)

    /// - Precondition: `value >= 0`.
    public init(value: Int) {
        precondition(value >= 0, "a semaphore starts with zero or more permits, got \(value)")
        self.value = Atomic(value)
    }

    public func wait() { wait(beforeBlocking: {}) }

    public func wait(timeout: Duration) -> WaitResult { wait(timeout: timeout, beforeBlocking: {}) }

    /// `wait()`, calling `beforeBlocking` once if the thread is about to sleep.
    public func wait(beforeBlocking: () -> Void) {
        // acquiringAndReleasing: a permit taken here sees what its signaller wrote before it.
        if value.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue >= 0 { return }
        if pollForPermit() { return }
        beforeBlocking()
        whileAsleep { tokens.wait() }
    }

    /// `wait(timeout:)`, calling `beforeBlocking` once if the thread is about to sleep.
    /// A timeout of zero or less looks once and gives the place back without polling (the
    /// try-wait idiom), and without `beforeBlocking`: the thread does not block.
    public func wait(timeout: Duration, beforeBlocking: () -> Void) -> WaitResult {
        if value.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue >= 0 { return .success }
        if timeout <= .zero { return giveBackOrTakeToken() }
        if pollForPermit() { return .success }
        beforeBlocking()
        if whileAsleep({ tokens.wait(timeout: timeout) }) == .success { return .success }
        return giveBackOrTakeToken()
    }

    private func whileAsleep<Result>(_ body: () -> Result) -> Result {
        sleepers.add(1, ordering: .relaxed)
        defer { sleepers.subtract(1, ordering: .relaxed) }
        return body()
    }

    /// For a counted waiter whose time is up: leaves the count, or, if a signal counted it before
    /// it could, takes the token that signal posted (or is about to).
    private func giveBackOrTakeToken() -> WaitResult {
        if value.incrementIfNegative() { return .timedOut }
        tokens.wait()
        return .success
    }

    /// A wait that found no permit: a free permit out of the count (`pollOutOfCount`), else,
    /// counted, a token within the budget. False when the waiter must sleep for its token.
    private func pollForPermit() -> Bool {
        value.pollOutOfCount(roundsPerLook: use.roundsPerLook(), signallerOnThisCPU: { signaller.sharesThisCPU })
            || spin.poll(until: tokens.tryWait, yieldingSoonIf: { signaller.isOnThisCPU })
    }

    /// Takes a permit if one is free now; never blocks.
    public func tryWait() -> Bool { value.decrementIfPositive() }

    @discardableResult
    public func signal() -> Bool {
        if value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 0 { return false }
        signaller.note()
        // Read before the post: a sleeper it wakes may leave the count before a read after it.
        if sleepers.load(ordering: .relaxed) > 0 { SpinBudget.noteWokeSleeper() }
        tokens.signal()
        return true
    }
}

import RuntimeKit

/// A counting semaphore on a pthread mutex and condition variable: the textbook implementation,
/// which enters the kernel on every contended hand-off (no spinning).
///
/// `value` goes negative while threads wait (as in libdispatch): `-value` threads are inside
/// `wait`. `signal` that finds a waiter hands it a wake-up token, so it can report truthfully that
/// it woke someone, and a waiter whose timeout expires either takes a token that was already
/// handed over (and succeeds) or gives its place back (and times out); never both.
public final class MutexSemaphore: CountingSemaphore, @unchecked Sendable {
    private let mutex = PThreadMutex()
    private let condition = PThreadCondition()
    private var value: Int
    private var wakeups = 0

    /// - Precondition: `value >= 0`.
    public init(value: Int) {
        precondition(value >= 0, "a semaphore starts with zero or more permits, got \(value)")
        self.value = value
    }

    public func wait() {
        mutex.lock()
        value -= 1
        if value < 0 {
            while wakeups == 0 { condition.wait(mutex) }
            wakeups -= 1
        }
        mutex.unlock()
    }

    /// Takes a permit if one is free now; never blocks, never reads the clock. For callers with
    /// something to do only before blocking (a work-stealing worker publishes its deque).
    public func tryWait() -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        guard value > 0 else { return false }
        value -= 1
        return true
    }

    public func wait(timeout: Duration) -> WaitResult {
        let deadline = MonotonicInstant.after(timeout)
        mutex.lock()
        defer { mutex.unlock() }
        value -= 1
        if value >= 0 { return .success }
        while wakeups == 0 {
            if !condition.wait(mutex, until: deadline), wakeups == 0 {
                value += 1  // give the place back: a later signal must not count us as a waiter
                return .timedOut
            }
        }
        wakeups -= 1
        return .success
    }

    @discardableResult
    public func signal() -> Bool {
        mutex.lock()
        value += 1
        let wokeWaiter = value <= 0
        if wokeWaiter {
            wakeups += 1
            condition.signal()
        }
        mutex.unlock()
        return wokeWaiter
    }
}

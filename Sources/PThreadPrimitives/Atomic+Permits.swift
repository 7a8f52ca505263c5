import Synchronization

/// The two conditional steps of a semaphore's count, shared by `TokenSemaphore` and
/// fifo-dispatch's `FIFOSemaphore`: a compare-and-exchange loop that moves the count one step only
/// while it is on the right side of zero. `acquiringAndReleasing`, like the count's other
/// read-modify-writes: a permit taken sees what its signaller wrote, and a waiter leaving is
/// ordered with the signals that counted it.
extension Atomic where Value == Int {
    /// `value += 1` if it is negative now: a waiter gives its place back. False once a signal has
    /// brought the count to zero or above (that signal counted this waiter).
    public func incrementIfNegative() -> Bool {
        step(by: 1) { $0 < 0 }
    }

    /// `value -= 1` if it is positive now: a free permit is taken without waiting.
    public func decrementIfPositive() -> Bool {
        step(by: -1) { $0 > 0 }
    }

    private func step(by delta: Int, while allowed: (Int) -> Bool) -> Bool {
        var current = load(ordering: .relaxed)
        while allowed(current) {
            let (done, seen) = compareExchange(
                expected: current, desired: current + delta, ordering: .acquiringAndReleasing)
            if done { return true }
            current = seen
        }
        return false
    }
}

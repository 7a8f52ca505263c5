import Synchronization

/// The conditional steps of a semaphore's count, shared by `TokenSemaphore` and
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

    /// For a waiter that found no permit and counted itself (its subtraction took the count below
    /// zero): gives its place back, polls briefly for a free permit, and counts itself again if
    /// none came. Counted at once, it would be owed the next signal's token, so a semaphore used
    /// as a lock would go from thread to thread at every section, each hand-off a trip of the
    /// count's line between the CPUs, while a thread that releases and at once takes the lock
    /// again could keep it (README.md, "TokenSemaphore"). The poll is brief
    /// (`SpinBudget.pollBriefly`): a `signal` does not see a waiter out of the count, and reports
    /// that it woke nobody. True with a permit; false when the waiter is counted (again, or by a
    /// signal before it could leave) and is owed a token. `signallerOnThisCPU` (the semaphore's
    /// `LastSignaller.sharesThisCPU`, which may first move this thread to another CPU) turns the
    /// rest of the poll into one yield after its first rounds: a signaller on this CPU cannot
    /// signal while this thread polls on it. The poll looks every `roundsPerLook` rounds
    /// (`LockOrHandOff`: spaced for a lock, every round for a hand-off).
    public func pollOutOfCount(roundsPerLook: Int = 1, signallerOnThisCPU: () -> Bool = { false }) -> Bool {
        guard incrementIfNegative() else { return false }
        if SpinBudget.pollBriefly(
            until: { decrementIfPositive() }, roundsPerLook: roundsPerLook, yieldingIf: signallerOnThisCPU)
        {
            return true
        }
        return wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue >= 0
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

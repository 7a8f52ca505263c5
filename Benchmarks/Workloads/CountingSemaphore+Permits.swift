import RuntimeKit

extension CountingSemaphore {
    /// The permits available now, for a pattern's final check: takes them with zero-timeout
    /// waits, at most `initialValue + 1` (enough to see one too many), then signals back what it
    /// took, and more if that was fewer than `initialValue`, so the semaphore is left with at
    /// least its initial value. libdispatch stops the process ("Semaphore object deallocated
    /// while in use") when a semaphore is released below its initial value, which would turn a
    /// failed case's verification message into a crash.
    ///
    /// - Precondition: no thread is waiting on the semaphore or about to use it.
    /// - Complexity: O(`initialValue`) semaphore calls.
    func permitsRestoring(initialValue: Int) -> Int {
        var found = 0
        while found <= initialValue, wait(timeout: .zero) == .success { found += 1 }
        for _ in 0..<max(found, initialValue) { signal() }
        return found
    }
}

/// A counting semaphore with the semantics of `dispatch_semaphore_t`: a value that `wait`
/// decrements (blocking while it would go below zero) and `signal` increments.
public protocol CountingSemaphore: Sendable {
    /// Takes one permit, blocking until one is available.
    func wait()
    /// Takes one permit, or gives up after `timeout` and returns `.timedOut`.
    func wait(timeout: Duration) -> WaitResult
    /// Returns one permit. `true` when that woke a thread blocked in `wait`.
    @discardableResult
    func signal() -> Bool
}

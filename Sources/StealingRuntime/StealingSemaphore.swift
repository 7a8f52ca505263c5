import PThreadPrimitives
import RuntimeKit

/// The work-stealing backend's semaphore: `TokenSemaphore` (one atomic per uncontended wait or
/// signal, a short adaptive poll, then a futex sleep), plus one duty before a worker blocks in
/// it. Jobs a worker pushed onto its own deque wake nobody while it is the only one with surplus
/// work (StealingRuntime.pushLocal), so before it blocks it wakes a sleeper to take them;
/// otherwise `async { semaphore.signal() }; semaphore.wait()` inside a block could wait
/// for a job sitting in the blocked worker's own deque.
///
/// A blocked wait still blocks its worker: the pool does not grow by workers. If every worker
/// blocks on signals that only queued work would send, the stall monitor's stand-in thread runs
/// that work (StealingRuntime+Stalls.swift; ARCHITECTURE.md, "Backend notes").
public final class StealingSemaphore: CountingSemaphore, @unchecked Sendable {
    private let semaphore: TokenSemaphore
    private unowned let runtime: StealingRuntime

    init(value: Int, runtime: StealingRuntime) {
        semaphore = TokenSemaphore(value: value)
        self.runtime = runtime
    }

    /// Only a wait that is about to sleep publishes (the `unowned` runtime reference costs an
    /// atomic check on every use, which an uncontended wait + signal should not pay).
    public func wait() {
        semaphore.wait(beforeBlocking: { runtime.publishBeforeBlocking() })
    }

    public func wait(timeout: Duration) -> WaitResult {
        semaphore.wait(timeout: timeout, beforeBlocking: { runtime.publishBeforeBlocking() })
    }

    @discardableResult
    public func signal() -> Bool { semaphore.signal() }
}

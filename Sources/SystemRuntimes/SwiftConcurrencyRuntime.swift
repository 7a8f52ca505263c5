import PThreadPrimitives
import RuntimeKit
import Synchronization

/// Backend `swift-concurrency`: Swift's cooperative thread pool. `async` creates an unstructured
/// task; a serial queue is a strand whose drain runs as a task (FIFO, one block at a time, `sync`
/// on the caller's thread), the honest way to get FIFO order: tasks that hop onto an actor are not
/// ordered by submission. `apply` spreads its pieces over tasks, the caller taking part.
///
/// Semaphores and groups are the pthread mutex + condition ones: Swift concurrency has no
/// blocking primitives, and blocking a cooperative thread while it waits for another task is
/// what the runtime forbids, so that behaviour is declared unsupported rather than faked.
public final class SwiftConcurrencyRuntime: PoolBackedRuntime, @unchecked Sendable {
    public static let id = "swift-concurrency"
    public static let summary =
        "Swift concurrency: unstructured tasks on the cooperative pool; serial queues as strands of tasks"
    public static let unsupported: [RuntimeBehaviour: String] = [
        .blockingWaitInsideWork:
            "the cooperative pool has one thread per CPU and never grows: a task that blocks until another task runs "
            + "can leave no thread to run it (deadlock)",
        .waitWithEveryWorkerWaiting: "the cooperative pool never grows: with every thread blocked in a wait, "
            + "the queued task that would wake them never runs",
        .waitUnseenByRuntime:
            "the cooperative pool never grows: with every thread blocked where the Swift runtime cannot see, "
            + "the queued task that would wake them never runs",
        .shutdownWaitsForWork: "the cooperative pool belongs to the Swift runtime: shutdown() "
            + "cannot join its threads or wait for detached tasks",
        .workerCountControl:
            "the cooperative pool is sized by the Swift runtime (one thread per CPU); workers reports that width",
        .ownExecutors: "this backend stands for Swift's own executors: the cooperative pool and default actors",
    ]

    public let workers: Int

    public init(workers: Int) {
        _ = resolvedWorkerCount(workers)
        self.workers = activeProcessorCount
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        Task.detached { work() }
    }

    public func shutdown() {}

    /// Swift's own: async code stays on the cooperative pool.
    public func makeTaskExecutor() -> (any TaskExecutor)? { nil }

    /// Swift's own: an actor keeps its default executor.
    public func makeSerialExecutor(label: String) -> (any SerialExecutor)? { nil }
}

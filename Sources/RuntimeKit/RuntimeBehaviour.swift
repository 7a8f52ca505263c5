/// Behaviours that some backends cannot honour. A backend lists the ones it lacks, with the
/// reason, in `ConcurrencyRuntime.unsupported`; a workload or test that needs one is then reported
/// "not applicable: reason" for that backend instead of deadlocking or measuring something else.
public enum RuntimeBehaviour: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A block blocks its thread until another block has run: a semaphore or group `wait`, or a
    /// `sync` on a busy queue, from inside a block.
    case blockingWaitInsideWork = "blocking-wait-inside-work"
    /// A block calls `sync` on a serial queue other than the one running it, even an idle one. A
    /// strand never needs the caller's thread to run the queue's blocks; a backend whose serial
    /// queues are its workers' own threads (nio: a queue is an event loop, and queues share the
    /// loops) cannot when the queue lives on the caller's thread: the blocks ahead of the `sync`
    /// could run only after the caller's block returns.
    case syncInsideWork = "sync-inside-work"
    /// Every worker blocks in a semaphore or group `wait` until a block still queued on the pool
    /// has run. Only a pool that adds a thread when its workers block (libdispatch,
    /// fifo-dispatch), or a wait that runs the queued block itself, can honour it; a fixed pool
    /// whose waits only block deadlocks.
    case waitWithEveryWorkerWaiting = "wait-with-every-worker-waiting"
    /// Every worker blocks in a wait the runtime cannot see (a plain pthread condition, a sleep,
    /// a read) until a block still queued on the pool has run. Only a pool that watches its
    /// workers and adds a thread when they all block (libdispatch's workqueue monitor, our
    /// `StallMonitor`) can honour it.
    case waitUnseenByRuntime = "wait-unseen-by-runtime"
    /// A block submitted with `async` runs on the first worker to come free: none stays queued
    /// behind a worker whose block is blocked while another worker idles. A pool that deals
    /// blocks to its workers in turn (NIO's `next()`) does not, so work that needs a block on
    /// every worker at once (every worker kept busy from outside) cannot count on getting it when
    /// other threads submit meanwhile.
    case freeWorkerRunsAnyBlock = "free-worker-runs-any-block"
    /// `shutdown()` waits until every submitted block has run.
    case shutdownWaitsForWork = "shutdown-waits-for-work"
    /// `init(workers:)` sets how many threads run blocks.
    case workerCountControl = "worker-count-control"
    /// Async code runs on executors of the runtime's own (`makeTaskExecutor`,
    /// `makeSerialExecutor`), not Swift's cooperative pool and default actors.
    case ownExecutors = "own-executors"

    public var description: String { rawValue }
}

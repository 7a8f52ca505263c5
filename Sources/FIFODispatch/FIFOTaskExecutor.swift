import CFIFODispatch
import RuntimeKit

/// The pool as a Swift `TaskExecutor`, one per pool: a task that prefers it runs its jobs on the
/// default global queue, each job a function block whose context is the job (nothing allocated
/// but the node, from the thread's cache; the generic `RuntimeTaskExecutor` allocates a closure
/// per job).
///
/// Being one object matters beyond the allocation: Swift continues a task in place, without
/// `enqueue`, when it already has the serial executor it needs *and* the task executor it
/// prefers. A queue's job for a task that prefers this executor therefore runs on it too
/// (`HandOff.hopOnPool` says how a job knows), and two actors on one queue call each other as
/// plain calls; with the task executor unnamed, every such call was two enqueues.
public final class FIFOTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// The pool owns its executor, so the executor holds the pool unowned: a task that prefers
    /// the executor must not outlive the runtime (as with any block sent to it).
    private unowned(unsafe) let pool: WorkerPool

    init(pool: WorkerPool) { self.pool = pool }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pool.root(.default).submit(
            .function(Self.runJob, unsafeBitCast(job, to: UnsafeMutableRawPointer.self)), kind: .block, priority: nil)
    }

    private static let runJob: WorkFunction = { context in
        let job = unsafeBitCast(context, to: UnownedJob.self)
        guard let worker = rb_fifo_worker() else { preconditionFailure("a task executor's job ran off the workers") }
        let executor = Unmanaged<WorkerPool>.fromOpaque(worker)._withUnsafeGuaranteedRef { $0.unownedTaskExecutor! }
        HandOff.run(job, taskExecutor: executor)
    }
}

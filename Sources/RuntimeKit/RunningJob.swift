import CExecutorJob

/// The job of a RuntimeKit executor running on this thread, and the task executor it runs on: how
/// a serial queue's job comes to name the task executor its task prefers.
///
/// Swift continues a task in place, without `enqueue`, when it already has the serial executor it
/// needs *and* the task executor it prefers (`swift_task_switch`: the running job's executors
/// against the task's). A queue's job run with `runSynchronously(on:)` names no task executor, so a
/// task that prefers a runtime's pool was enqueued again for every call to an actor on the queue
/// it was already on. Nothing public tells a job's preference; a hop carries it. Swift clears the
/// current task before it enqueues a task that moves to another executor, so "a job of ours is
/// running and no task is current" is that moment, and the job enqueued then is the same task
/// moving on, with the preference it had: it runs on the task executor the job before it ran on.
/// Every other way onto a queue (a task's start, a resume, a call from outside) names none, as
/// before. A wrong answer costs speed only (an `enqueue` where Swift could have continued), never
/// isolation, which the serial executor alone decides.
public enum RunningJob {
    /// The task executor a job being enqueued now should run on: the running job's, when the
    /// enqueue is its task hopping (see above); else nil.
    @inlinable
    public static func hopTaskExecutor() -> UnownedTaskExecutor? {
        let slot = rb_executor_job_current()
        guard slot.pointee.running != 0, slot.pointee.taskExecutor.0 != nil || slot.pointee.taskExecutor.1 != nil,
            rb_swift_current_task() == nil
        else { return nil }
        return unsafeBitCast(slot.pointee.taskExecutor, to: UnownedTaskExecutor.self)
    }

    /// Runs `job` on `taskExecutor`, marked as running on it.
    @inlinable
    public static func run(_ job: UnownedJob, taskExecutor: UnownedTaskExecutor) {
        marked(taskExecutor) { job.runSynchronously(on: taskExecutor) }
    }

    /// Runs `job` isolated to `serialExecutor`, and on `taskExecutor` when there is one
    /// (`hopTaskExecutor` at its enqueue).
    @inlinable
    public static func run(
        _ job: UnownedJob, isolatedTo serialExecutor: UnownedSerialExecutor, taskExecutor: UnownedTaskExecutor?
    ) {
        marked(taskExecutor) {
            if let taskExecutor {
                job.runSynchronously(isolatedTo: serialExecutor, taskExecutor: taskExecutor)
            } else {
                job.runSynchronously(on: serialExecutor)
            }
        }
    }

    /// Marks the thread around `body`, restoring what was there: a block that runs another
    /// executor's job inline (a `sync` draining a queue) nests.
    @inlinable
    static func marked(_ taskExecutor: UnownedTaskExecutor?, _ body: () -> Void) {
        let slot = rb_executor_job_current()
        let before = slot.pointee
        slot.pointee.running = 1
        slot.pointee.taskExecutor =
            taskExecutor.map { unsafeBitCast($0, to: (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?).self) }
            ?? (nil, nil)
        body()
        slot.pointee = before
    }
}

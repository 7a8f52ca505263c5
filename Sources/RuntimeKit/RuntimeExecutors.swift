/// A runtime's pool as a Swift `TaskExecutor`: a task that prefers it
/// (`withTaskExecutorPreference`, `Task(executorPreference:)`, a task group's children) runs its
/// jobs on the runtime's workers instead of Swift's cooperative pool. Each job is one `async` of
/// the runtime, whose closure carries the job and this executor.
public final class RuntimeTaskExecutor<Runtime: ConcurrencyRuntime>: TaskExecutor {
    public let runtime: Runtime

    public init(_ runtime: Runtime) { self.runtime = runtime }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        runtime.async { RunningJob.run(job, taskExecutor: executor) }
    }
}

/// A serial queue as a Swift `SerialExecutor`: an actor whose `unownedExecutor` is this one runs
/// its jobs on the queue, one at a time in the order they were enqueued, as the queue runs blocks.
/// A job for a task that hops here from a task executor's job runs on that task executor too
/// (`RunningJob`), so the task's calls to actors on this queue continue in place.
public final class SerialQueueExecutor<Queue: SerialQueue>: SerialExecutor {
    public let queue: Queue

    public init(_ queue: Queue) { self.queue = queue }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        let taskExecutor = RunningJob.hopTaskExecutor()
        queue.async { RunningJob.run(job, isolatedTo: executor, taskExecutor: taskExecutor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

import RuntimeKit

/// A serial queue is a Swift `SerialExecutor`: an actor whose `unownedExecutor` is a queue's
/// runs its jobs there, one at a time and between the queue's own blocks, as blocks. A job is
/// a function block whose context is the job itself, so enqueuing allocates nothing but the
/// queue's task node (from the thread's cache); a hop from another job ending on a worker may
/// skip the queue altogether (`HandOff`).
extension FIFOQueue: SerialExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        precondition(kind != .concurrent, "a concurrent queue ('\(label)') is not a serial executor")
        if HandOff.offer(job, to: self) { return }
        submitJob(job)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// The job as a block of this queue: the drain that runs it has the queue in its frame.
    func submitJob(_ job: UnownedJob) {
        submit(
            .function(Self.runJob, unsafeBitCast(job, to: UnsafeMutableRawPointer.self)), kind: .block, priority: nil)
    }

    private static let runJob: WorkFunction = { context in
        let job = unsafeBitCast(context, to: UnownedJob.self)
        guard let frame = DrainFrame.current else { preconditionFailure("an actor job ran outside its queue") }
        HandOff.run(job, on: frame.pointee.queue.takeUnretainedValue())
    }
}

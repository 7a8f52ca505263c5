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
        let onPool = HandOff.hopOnPool()
        if let onPool, HandOff.offer(job, to: self, onPool: onPool) { return }
        submitJob(job, onPool: onPool ?? false)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// The job as a block of this queue: the drain that runs it has the queue in its frame. Which
    /// of the two functions carries whether it runs on the pool's task executor too, so the
    /// context stays the job alone.
    func submitJob(_ job: UnownedJob, onPool: Bool) {
        submit(
            .function(onPool ? Self.runJobOnPool : Self.runJob, unsafeBitCast(job, to: UnsafeMutableRawPointer.self)),
            kind: .block, priority: nil)
    }

    private static let runJob: WorkFunction = { context in run(context, onPool: false) }
    private static let runJobOnPool: WorkFunction = { context in run(context, onPool: true) }

    @inline(__always)
    private static func run(_ context: UnsafeMutableRawPointer?, onPool: Bool) {
        let job = unsafeBitCast(context, to: UnownedJob.self)
        guard let frame = DrainFrame.current else { preconditionFailure("an actor job ran outside its queue") }
        HandOff.run(job, on: frame.pointee.queue.takeUnretainedValue(), onPool: onPool)
    }
}

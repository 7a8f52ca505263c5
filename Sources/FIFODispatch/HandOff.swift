import CExecutorJob
import CFIFODispatch
import PThreadPrimitives
import RuntimeKit

/// An actor hop without the queues: when a job running on a worker ends by hopping to an actor
/// whose executor is an idle serial queue, the worker takes the queue as `sync` does (one
/// compare-and-exchange) and runs the job itself once the job before it has returned, instead of
/// pushing a node, scheduling the queue on a root and perhaps waking another worker. Swift does
/// the same for default actors (a "switch" on the same thread); onto or off any other executor
/// it calls `enqueue` on every hop between two executors, so the switch has to happen here.
///
/// The slot is the worker's own (allocated as its thread starts, found through a C thread-local), so
/// nothing in it races; what the hand-off holds is the queue's state word, taken and released by
/// the same exchanges as a fast `sync` (README.md, "Actor jobs handed off", has the argument).
@usableFromInline
struct HandOffSlot {
    /// A job of a queue's executor or of the pool's task executor is running on this thread
    /// (set around `runSynchronously`).
    var runningJob = false
    /// Whether the running job runs on the pool's task executor (`hopOnPool`).
    var runningOnPool = false
    /// The job offered while it ran, with the queue it is for (unretained: its actor keeps the
    /// executor alive, as Swift requires of an actor's `unownedExecutor`).
    var pending: (job: UnownedJob, queue: Unmanaged<FIFOQueue>, onPool: Bool)?
    /// Hand-offs since this worker last took a node from its roots' lists.
    var inARow = 0
}

enum HandOff {
    /// Hand-offs in a row before a hop goes through the queue again, behind whatever waits on
    /// the roots: two actors calling each other forever would otherwise keep their worker from
    /// every other block (the reason for `FIFOQueue.drainBudget`).
    static let maxInARow = 256

    static var slot: UnsafeMutablePointer<HandOffSlot>? {
        rb_fifo_handoff().map { $0.assumingMemoryBound(to: HandOffSlot.self) }
    }

    /// Keeps `job`, a hop (`hopOnPool`), for this worker to run next. Swift clears the current
    /// task before it enqueues a task that hops (or ends), so "a job of ours is running and no
    /// task is current" is that moment; a continuation resumed or a task started from inside a
    /// job has its task current and takes the queue's path, so a job that goes on running (or
    /// blocks) never holds another one back.
    static func offer(_ job: UnownedJob, to queue: FIFOQueue, onPool: Bool) -> Bool {
        guard let slot, slot.pointee.pending == nil, slot.pointee.inARow < maxInARow || !othersWaiting() else {
            return false
        }
        slot.pointee.pending = (job, .passUnretained(queue), onPool)
        return true
    }

    /// For a job being enqueued: nil unless it is a hop, a job of ours on this worker
    /// giving up its thread (no task current: see `offer`); else whether the hopping task runs
    /// on the pool's task executor, which its next job then does too.
    ///
    /// Swift continues a task in place when it already has the serial executor it needs and the
    /// task executor it prefers, so a job's context must name the pool's executor exactly when
    /// the job's task prefers it, and nothing public tells a job's preference. A hop is the task
    /// moving on, with the preference it had, so the running job's answer carries over. Every
    /// other way onto a queue (a task's start, a resume, a call from outside) runs the job off
    /// the pool's executor, as `runSynchronously(on:)` would; a task that prefers the pool came
    /// through the pool's executor first (observed on Swift 6.3.1 for a task started isolated to
    /// an actor on a queue, and for a resumed continuation: FIFOTaskExecutorTests), so its
    /// jobs on queues are hops.
    static func hopOnPool() -> Bool? {
        guard let slot, slot.pointee.runningJob, rb_swift_current_task() == nil else { return nil }
        return slot.pointee.runningOnPool
    }

    /// Whether blocks wait on this worker's roots. Asked only once a worker has handed off
    /// `maxInARow` jobs: when nothing waits, sending the hop through its queue would only wake
    /// the other worker for it (a futex wake, and the chain moving between CPUs).
    private static func othersWaiting() -> Bool {
        guard let worker = rb_fifo_worker() else { return true }
        let waiting = Unmanaged<WorkerPool>.fromOpaque(worker)._withUnsafeGuaranteedRef { $0.hasWork }
        if !waiting { slot?.pointee.inARow = 0 }
        return waiting
    }

    /// The pending job, if it is for `queue` (a drain of `queue` runs it in place).
    static func takePending(for queue: FIFOQueue) -> (job: UnownedJob, onPool: Bool)? {
        guard let slot, let pending = slot.pointee.pending, pending.queue.takeUnretainedValue() === queue else {
            return nil
        }
        slot.pointee.pending = nil
        return (pending.job, pending.onPool)
    }

    static var hasPending: Bool { slot?.pointee.pending != nil }

    /// At a worker's root, between nodes: runs the pending job holding its queue, and the job
    /// that one hands on, and so on. A queue that is not idle (blocks waiting, held by a `sync`,
    /// suspended) or not a root's direct child gets the job through its list instead.
    static func runPending() {
        guard let slot else { return }
        while let pending = slot.pointee.pending {
            slot.pointee.pending = nil
            let queue = pending.queue.takeUnretainedValue()
            guard queue.isRootChild, queue.tryAcquire(exclusive: true) else {
                queue.submitJob(pending.job, onPool: pending.onPool)
                continue
            }
            slot.pointee.inARow += 1
            RuntimeEvents.count(.handOffs)
            var frame = DrainFrame(queue: pending.queue, hold: .lock, parent: nil)
            withUnsafeMutablePointer(to: &frame) { frame in
                DrainFrame.setCurrent(frame)
                run(pending.job, on: queue, onPool: pending.onPool)
                DrainFrame.setCurrent(nil)
            }
            queue.releaseAfterSync()
        }
    }

    /// Runs a job of `queue`'s executor; `onPool`: on the pool's task executor too (`hopOnPool`).
    @inline(__always)
    static func run(_ job: UnownedJob, on queue: FIFOQueue, onPool: Bool) {
        running(onPool: onPool) {
            if onPool {
                job.runSynchronously(
                    isolatedTo: queue.asUnownedSerialExecutor(),
                    taskExecutor: queue.pool._withUnsafeGuaranteedRef { $0.unownedTaskExecutor })
            } else {
                job.runSynchronously(on: queue.asUnownedSerialExecutor())
            }
        }
    }

    /// Runs a job of the pool's task executor: a task that ends it by calling an actor on an
    /// idle queue continues on this worker, on the pool's executor.
    @inline(__always)
    static func run(_ job: UnownedJob, taskExecutor: UnownedTaskExecutor) {
        running(onPool: true) { job.runSynchronously(on: taskExecutor) }
    }

    /// Marks the slot around `body`, a job running, so that a hop at its end is offered. Off
    /// the workers (the main queue under `dispatchMain`) there is no slot and no hand-off.
    @inline(__always)
    private static func running(onPool: Bool, _ body: () -> Void) {
        let slot = slot
        slot?.pointee.runningJob = true
        slot?.pointee.runningOnPool = onPool
        body()
        slot?.pointee.runningJob = false
    }

    /// Gives the calling worker thread its slot, on the heap: a pointer to a local of the
    /// worker's loop would outlive the closure that made it. `releaseWorkerSlot` as it exits.
    static func takeWorkerSlot() {
        let slot = UnsafeMutablePointer<HandOffSlot>.allocate(capacity: 1)
        slot.initialize(to: HandOffSlot())
        rb_fifo_set_handoff(slot)
    }

    static func releaseWorkerSlot() {
        guard let slot else { return }
        rb_fifo_set_handoff(nil)
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    static func beganRootNode() {
        slot?.pointee.inARow = 0
    }
}

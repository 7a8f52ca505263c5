#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import RuntimeKit

/// A `nio` serial queue: one event loop of the group. NIO runs a loop's tasks one at a time in
/// the order they were submitted, which is a serial queue's whole contract; queues share the
/// group's loops, placed round-robin, so two queues on one loop are also serial to each other.
///
/// `async` is the loop's `execute`. `sync` runs its block on the calling thread with the loop
/// held (`LoopHold`), from any thread but one already on this loop (one of its blocks, or a
/// `sync` caller holding it for another queue): that thread holds the loop, so the blocks queued
/// ahead of the caller could not run until it lets go. Rather than hang, that traps, naming the
/// queue (the backend declares `blockingWaitInsideWork`
/// unsupported: with its loops shared, no block may wait on a queue). NIO's own
/// `EventLoopFuture.wait()` is not used: it traps on any loop of the group.
public struct EventLoopQueue: SerialQueue {
    public let label: String
    let lane: LoopLane

    init(label: String, lane: LoopLane) {
        self.label = label
        self.lane = lane
    }

    /// The loop this queue runs on.
    public var eventLoop: any EventLoop { lane.loop }

    public func async(_ work: @escaping @Sendable () -> Void) { lane.submit(work) }

    /// Inlinable, with the non-generic halves out of line, so a caller specialized for this queue
    /// calls the block directly (as `Strand.sync` is).
    @inlinable
    public func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        let hold = holdLoop()
        defer { release(hold) }
        return try work()
    }

    /// Queues a hold on the loop and waits until the loop reaches it.
    @usableFromInline
    func holdLoop() -> LoopHold {
        precondition(
            !lane.isHeldByCaller,
            "sync onto queue '\(label)' from a thread that already runs on its event loop (one of its blocks, or a "
                + "sync onto another queue of that loop): the blocks queued ahead of it cannot run until that returns "
                + "(nio queues share the group's loops)")
        // ManagedBuffer is never Sendable; a hold is shared by exactly the caller and the loop, and
        // its semaphores, its only state, are made for that.
        nonisolated(unsafe) let hold = LoopHold.make(on: lane)
        lane.loop.execute { hold.grantAndWaitForRelease() }
        hold.waitUntilGranted()
        lane.holder.store(pthread_self(), ordering: .relaxed)
        return hold
    }

    @usableFromInline
    func release(_ hold: LoopHold) {
        lane.holder.store(0, ordering: .relaxed)
        hold.release()
    }
}

#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import PThreadPrimitives
import Synchronization

/// One event loop of a `NIORuntime` with what the runtime keeps beside it: how many blocks its
/// queues, apply helpers and group notifications put on the loop (what `shutdown()` reads to know
/// that nothing is still on its way, README.md "Shutdown"), and whether the runtime has stopped.
@usableFromInline
final class LoopLane: Sendable {
    let loop: any EventLoop
    /// Blocks submitted to this loop other than `NIORuntime.async`'s, which its cursor counts.
    /// Relaxed: `shutdown()` reads it only after markers queued behind the submitting blocks have
    /// run, and NIO's task lock and the markers' semaphore order the count before that read.
    let submitted = Atomic<Int>(0)
    /// Set once the group is shut down: a loop that has stopped drops what reaches it, printing
    /// an error, so a submission after `shutdown()` traps here instead.
    let stopped = Atomic<Bool>(false)

    /// The thread whose `sync` holds the loop (`pthread_self()`), 0 when none: a second `sync`
    /// onto a queue of this loop from that thread would wait for the loop it holds itself.
    /// Relaxed: only the holder writes it, and reads it to know whether it is the holder (another
    /// thread never finds its own id there).
    let holder = Atomic<UInt>(0)

    /// How long a `sync` caller polls for the loop to reach its hold, and the loop for the caller
    /// to let go, before sleeping: learnt per loop from the hand-offs that went before.
    let grantPolls = SpinBudget()
    let releasePolls = SpinBudget()

    init(_ loop: any EventLoop) { self.loop = loop }

    /// Whether the calling thread already runs on this loop, as one of its blocks or as a
    /// `sync` caller holding it: then it cannot wait for the loop to reach a new hold.
    var isHeldByCaller: Bool {
        loop.inEventLoop || holder.load(ordering: .relaxed) == pthread_self()
    }

    /// Puts `work` on the loop: NIO's `execute`, FIFO behind what the loop already holds.
    @inline(__always)
    func submit(_ work: @escaping @Sendable () -> Void) {
        precondition(!stopped.load(ordering: .relaxed), "a block submitted to a nio runtime after shutdown()")
        submitted.wrappingAdd(1, ordering: .relaxed)
        loop.execute(work)
    }
}

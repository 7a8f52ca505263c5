import NIOCore
import NIOPosix
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// Backend `nio`: SwiftNIO's `MultiThreadedEventLoopGroup` as the pool, one of its event loops as
/// each serial queue, and that loop's own `SerialExecutor` for actors. `async` is `execute` on
/// the group's loops in turn, as `next()` picks them; `apply` spreads its pieces over the loops,
/// the caller taking part; semaphores and groups are the pthread mutex + condition ones NIO has
/// no counterpart of. `shutdown()` runs what was submitted, then joins the loops' threads.
///
/// A loop is a thread that must not block, and the group never grows: whatever waits inside a
/// block for another block is declared unsupported below rather than left to deadlock
/// (README.md beside this file).
public final class NIORuntime: ConcurrencyRuntime, @unchecked Sendable {
    public typealias Queue = EventLoopQueue
    public typealias Semaphore = MutexSemaphore
    public typealias Group = MutexGroup<EventLoopQueue>

    public static let id = "nio"
    public static let summary =
        "SwiftNIO: a MultiThreadedEventLoopGroup as the pool, an event loop as the serial queue and actor executor"
    public static let unsupported: [RuntimeBehaviour: String] = [
        .syncInsideWork: "a serial queue is an event loop, which other queues and pool blocks share: a block's sync "
            + "onto a queue of its own loop could run only after the block returns, so it traps instead",
        .blockingWaitInsideWork:
            "a block runs on an event loop, which serial queues share: a block that waits for another block "
            + "holds its loop, and a queue on that loop, or the waited-for block, cannot run until it returns "
            + "(deadlock; NIO forbids blocking a loop)",
        .waitWithEveryWorkerWaiting: "the event loop group has a fixed set of loops and never adds one: with every "
            + "loop blocked in a wait, the queued block that would wake them never runs",
        .waitUnseenByRuntime: "the event loop group has a fixed set of loops and no monitor: with every loop "
            + "blocked where NIO cannot see, the queued block that would wake them never runs",
        .freeWorkerRunsAnyBlock: "async hands each block to the group's next loop in turn, as next() does, not to a "
            + "free one: a block dealt to a loop whose block waits stays queued while another loop idles",
    ]

    public let workers: Int
    /// The group itself, for code that wants NIO beyond the protocol (channels, futures).
    public let group: MultiThreadedEventLoopGroup
    let lanes: [LoopLane]
    /// `async`'s round-robin over the lanes (what `group.next()` does) and its submission count in
    /// one word, read by `shutdown()` (README.md, "Shutdown"). Relaxed, as `LoopLane.submitted`.
    private let cursor = Atomic<Int>(0)
    /// Where the next serial queue or serial executor goes, round-robin.
    private let placements = Atomic<Int>(0)
    private let lifecycle = PThreadMutex()
    private var state = State.running

    private enum State { case running, stopping, stopped }

    public init(workers: Int) {
        self.workers = resolvedWorkerCount(workers)
        group = MultiThreadedEventLoopGroup(numberOfThreads: self.workers)
        lanes = group.makeIterator().map(LoopLane.init)
        precondition(lanes.count == self.workers, "the group has \(lanes.count) loops, not \(self.workers)")
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        let turn = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        let lane = lanes[Int(UInt(bitPattern: turn) % UInt(lanes.count))]
        precondition(!lane.stopped.load(ordering: .relaxed), "async on a \(Self.id) runtime after shutdown()")
        lane.loop.execute(work)
    }

    public func makeSerialQueue(label: String) -> EventLoopQueue {
        EventLoopQueue(label: label, lane: nextPlacement())
    }

    public func makeSemaphore(value: Int) -> MutexSemaphore { MutexSemaphore(value: value) }

    public func makeGroup() -> MutexGroup<EventLoopQueue> { MutexGroup() }

    /// The loop's own executor (NIO's `SelectableEventLoop` is a `SerialExecutor`): an actor on it
    /// runs its jobs on the loop, FIFO, as the loop's queues run blocks.
    public func makeSerialExecutor(label: String) -> (any SerialExecutor)? { nextPlacement().loop.executor }

    // makeTaskExecutor: the default `RuntimeTaskExecutor`, each job one `async`. NIO 2.101 has no
    // `TaskExecutor` for a group (only a loop's `SerialExecutor`), and one of our own would do
    // exactly that: pick a loop, `execute` the job on it.

    private func nextPlacement() -> LoopLane {
        let turn = placements.wrappingAdd(1, ordering: .relaxed).oldValue
        return lanes[Int(UInt(bitPattern: turn) % UInt(lanes.count))]
    }

    public func shutdown() {
        lifecycle.lock()
        guard state == .running else {
            lifecycle.unlock()
            return
        }
        precondition(
            !lanes.contains { $0.loop.inEventLoop },
            "shutdown() called from a block on one of the \(Self.id) runtime's loops: it would wait for itself")
        state = .stopping
        lifecycle.unlock()
        waitUntilNothingIsOnItsWay()
        for lane in lanes { lane.stopped.store(true, ordering: .relaxed) }
        do {
            try group.syncShutdownGracefully()
        } catch {
            preconditionFailure("the \(Self.id) runtime's event loop group did not shut down: \(error)")
        }
        lifecycle.withLock { state = .stopped }
    }

    /// Returns once every block submitted before the call, and every block those submit in turn,
    /// has run. NIO's own shutdown closes the loops one by one, and a loop that has closed drops a
    /// block another loop's block submits to it; so first, rounds of one marker per loop (each
    /// runs after everything queued on its loop before it) until two rounds in a row saw no new
    /// submission (README.md, "Shutdown", says why one clean round is not enough).
    private func waitUntilNothingIsOnItsWay() {
        var before = submissions()
        var cleanRounds = 0
        while cleanRounds < 2 {
            let markers = MutexSemaphore(value: 0)
            for lane in lanes { lane.loop.execute { markers.signal() } }
            for _ in lanes { markers.wait() }
            let after = submissions()
            cleanRounds = after == before ? cleanRounds + 1 : 0
            before = after
        }
    }

    private func submissions() -> Int {
        lanes.reduce(cursor.load(ordering: .relaxed)) { $0 &+ $1.submitted.load(ordering: .relaxed) }
    }
}

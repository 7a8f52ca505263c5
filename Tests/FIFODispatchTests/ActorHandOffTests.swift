@testable import FIFODispatch
import Glibc
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing
import TestSupport

/// Actors whose executors are fifo-dispatch queues, hopping to each other: a hop that ends a job
/// on a worker is run by that worker without the queue's list (`HandOff`), and must keep what the
/// list would: every job once, a queue's jobs and blocks one at a time, nothing held back.
@Suite("FIFODispatch actor hand-offs")
struct ActorHandOffTests {
    /// What one queue's actor jobs and plain blocks record: a run each, and any two at once.
    final class Turns: Sendable {
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let blocks = Atomic<Int>(0)

        func enter() { if inside.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) } }
        func leave() { inside.store(false, ordering: .releasing) }
    }

    actor Side {
        let queue: FIFOQueue
        let turns: Turns
        /// Plain state of the actor: a hop that broke isolation shows as a lost count (and a race).
        private(set) var received = 0

        init(queue: FIFOQueue, turns: Turns) {
            self.queue = queue
            self.turns = turns
        }

        nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

        func receive() {
            turns.enter()
            received += 1
            turns.leave()
        }

        func rally(with partner: Side, rounds: Int) async {
            for _ in 0..<rounds {
                turns.enter()
                turns.leave()
                await partner.receive()
            }
        }
    }

    static let rounds = getenv("FIFO_HANDOFF_ROUNDS").flatMap { Int(String(cString: $0)) } ?? 500_000

    @Test(
        "4 actors on 4 queues hop 2 million times beside blocks sent to their queues: each hop once, never two at once"
    )
    func hopsBesideBlocks() async throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let turns = (0..<4).map { _ in Turns() }
        let sides = (0..<4).map { Side(queue: runtime.makeSerialQueue(label: "side \($0)"), turns: turns[$0]) }
        let handOffsBefore = Self.handOffs()
        let rallies = [
            Task.detached { await sides[0].rally(with: sides[1], rounds: Self.rounds) },
            Task.detached { await sides[2].rally(with: sides[3], rounds: Self.rounds) },
        ]
        // Blocks from an outside thread onto the same queues, entering the same turn: a hand-off
        // that took a queue a block holds (or the other way round) is an overlap.
        let blocksPerQueue = 20_000
        try await onDedicatedThread {
            for round in 0..<blocksPerQueue {
                for index in 0..<4 {
                    let turn = turns[index]
                    sides[index].queue.async {
                        turn.enter()
                        turn.blocks.add(1, ordering: .relaxed)
                        turn.leave()
                    }
                }
                if round % 1_000 == 0 { sched_yield() }
            }
        }
        for rally in rallies { await rally.value }
        let finished = try await onDedicatedThread {
            eventually { turns.allSatisfy { $0.blocks.load(ordering: .relaxed) == blocksPerQueue } }
        }
        #expect(finished, "blocks ran: \(turns.map { $0.blocks.load(ordering: .relaxed) }) of \(blocksPerQueue) each")
        #expect(await sides[1].received == Self.rounds)
        #expect(await sides[3].received == Self.rounds)
        #expect(turns.map { $0.overlaps.load(ordering: .relaxed) } == [0, 0, 0, 0])
        #expect(Self.handOffs() > handOffsBefore, "no hop was handed off: the test no longer tests HandOff")
    }

    final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .acquiring) }
        func raise() { raised.store(true, ordering: .releasing) }
    }

    actor Resumer {
        let queue: FIFOQueue
        init(queue: FIFOQueue) { self.queue = queue }
        nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

        /// Resumes `continuation`, then keeps its worker until the resumed task has run.
        func resume(_ continuation: CheckedContinuation<Void, Never>, thenWaitFor resumed: Flag) -> Bool {
            continuation.resume()
            return eventually(timeout: .seconds(60)) { resumed.isRaised }
        }
    }

    actor Waiter {
        let queue: FIFOQueue
        init(queue: FIFOQueue) { self.queue = queue }
        nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

        func wait(resumedBy resumer: Resumer, resumed: Flag, resumerSaw: Flag) async {
            await withCheckedContinuation { continuation in
                Task { if await resumer.resume(continuation, thenWaitFor: resumed) { resumerSaw.raise() } }
            }
            resumed.raise()
        }
    }

    @Test("a job that resumes another task and goes on running does not hold that task back", .timeLimit(.minutes(2)))
    func resumeIsNotHeldBack() async throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let resumer = Resumer(queue: runtime.makeSerialQueue(label: "resumer"))
        let waiter = Waiter(queue: runtime.makeSerialQueue(label: "waiter"))
        for _ in 0..<50 {
            let resumed = Flag(), resumerSaw = Flag()
            await waiter.wait(resumedBy: resumer, resumed: resumed, resumerSaw: resumerSaw)
            let saw = try await onDedicatedThread { eventually { resumerSaw.isRaised } }
            #expect(saw, "the resuming job waited 60 s for the task it resumed")
        }
    }

    static func handOffs() -> UInt64 { RuntimeEvents.total(.handOffs) }
}

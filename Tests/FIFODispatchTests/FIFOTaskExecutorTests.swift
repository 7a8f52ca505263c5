import FIFODispatch
import CThreadInfo
import Synchronization
import Testing

/// The pool's task executor (`FIFOTaskExecutor`): one object per runtime, and a queue's jobs run
/// on it, so a task that prefers it calls between actors of one queue without leaving the queue.
@Suite("FIFODispatch task executor")
struct FIFOTaskExecutorTests {
    /// Blocks a `Caller` sends to its own queue; they run between two calls only if a call went
    /// through the queue's list.
    final class Blocks: Sendable {
        let ran = Atomic<Int>(0)
    }

    actor Caller {
        let queue: FIFOQueue
        let blocks: Blocks
        /// Calls to the partner between which a block of the queue ran.
        private(set) var callsBehindBlocks = 0

        init(queue: FIFOQueue, blocks: Blocks) {
            self.queue = queue
            self.blocks = blocks
        }

        nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

        func receive() {}

        /// Before each of `rounds` calls to `partner` (same queue), sends a block to the queue;
        /// counts the calls a block ran before.
        func rally(with partner: Caller, rounds: Int) async {
            for _ in 0..<rounds {
                queue.async { [blocks] in blocks.ran.add(1, ordering: .relaxed) }
                let before = blocks.ran.load(ordering: .relaxed)
                await partner.receive()
                if blocks.ran.load(ordering: .relaxed) != before { callsBehindBlocks += 1 }
            }
        }

        /// The rally, after waiting on this actor for a continuation resumed from Swift's pool.
        func rallyAfterResume(with partner: Caller, rounds: Int) async {
            await withCheckedContinuation { done in Task.detached { done.resume() } }
            await rally(with: partner, rounds: rounds)
        }

        /// A task preferring `executor` that starts isolated to this actor: its first job is
        /// enqueued here by the calling task, not by a hop of its own.
        func startRally(with partner: Caller, rounds: Int, preferring executor: any TaskExecutor) -> Task<Void, Never> {
            Task(executorPreference: executor) { await self.rally(with: partner, rounds: rounds) }
        }
    }

    enum Start: String, CaseIterable, CustomTestStringConvertible {
        case preferringPool = "a task preferring the pool"
        case noPreference = "a task with no preference"
        case preferringPoolStartedOnQueue = "a task preferring the pool, started on the queue by one with none"
        case preferringPoolResumed = "a task preferring the pool, resumed from Swift's pool first"
        var testDescription: String { rawValue }
    }

    @Test("every call for the task executor gets the same object: Swift compares executors by identity")
    func oneExecutorPerRuntime() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let first = try #require(runtime.makeTaskExecutor() as? FIFOTaskExecutor)
        let second = try #require(runtime.makeTaskExecutor() as? FIFOTaskExecutor)
        #expect(first === second)
    }

    @Test(
        "calls between two actors of one queue continue on the queue: blocks sent meanwhile wait for them",
        arguments: Start.allCases)
    func callsOnOneQueueContinueInPlace(start: Start) async throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let queue = runtime.makeQueue(label: "one queue, two actors")
        let blocks = Blocks()
        let first = Caller(queue: queue, blocks: blocks)
        let second = Caller(queue: queue, blocks: blocks)
        // The task comes to the queue from a call to an actor on another queue: a hop from a job
        // of that queue, which carries whether the task prefers the pool (HandOff.hopOnPool).
        let elsewhere = Caller(queue: runtime.makeQueue(label: "elsewhere"), blocks: Blocks())
        let executor = try #require(runtime.makeTaskExecutor())
        let rounds = 10_000
        switch start {
        case .preferringPool:
            await Task(executorPreference: executor) {
                await elsewhere.receive()
                await first.rally(with: second, rounds: rounds)
            }.value
        case .noPreference:
            await Task {
                await elsewhere.receive()
                await first.rally(with: second, rounds: rounds)
            }.value
        case .preferringPoolStartedOnQueue:
            await first.startRally(with: second, rounds: rounds, preferring: executor).value
        case .preferringPoolResumed:
            await Task(executorPreference: executor) { await first.rallyAfterResume(with: second, rounds: rounds) }
                .value
        }
        // A call that went through the list runs behind the block sent just before it.
        #expect(await first.callsBehindBlocks == 0)
        // The blocks were not lost: they run once the task leaves the queue.
        await withCheckedContinuation { done in queue.async { done.resume() } }
        #expect(blocks.ran.load(ordering: .relaxed) == rounds)
    }

    @Test("a task preferring the pool runs its jobs on the pool's workers, the task group's children too")
    func jobsRunOnWorkers() async throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let executor = try #require(runtime.makeTaskExecutor())
        let onWorkers = await Task(executorPreference: executor) {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<1_000 { group.addTask { Self.threadName() == "fifo-dispatch" } }
                return await group.reduce(true) { $0 && $1 }
            }
        }.value
        #expect(onWorkers)
    }

    actor NonisolatedCaller {
        let queue: FIFOQueue

        init(queue: FIFOQueue) { self.queue = queue }

        nonisolated var unownedExecutor: UnownedSerialExecutor { queue.asUnownedSerialExecutor() }

        /// Whether each of `count` calls to a nonisolated async function ran on the pool's workers.
        func callsOnWorkers(_ count: Int) async -> [Bool] {
            var onWorkers: [Bool] = []
            for _ in 0..<count { onWorkers.append(await NonisolatedCaller.onWorker()) }
            return onWorkers
        }

        @concurrent nonisolated static func onWorker() async -> Bool {
            FIFOTaskExecutorTests.threadName() == "fifo-dispatch"
        }
    }

    @Test(
        """
        from an actor on a queue, a nonisolated async function runs on the pool when the task prefers it, on \
        Swift's pool when not (SE-0417, which swift-async's nonisolated-call relies on)
        """)
    func nonisolatedCallsFollowThePreference() async throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let executor = try #require(runtime.makeTaskExecutor())
        let caller = NonisolatedCaller(queue: runtime.makeQueue(label: "caller"))
        let preferring = await Task(executorPreference: executor) { await caller.callsOnWorkers(100) }.value
        let unpreferred = await Task { await caller.callsOnWorkers(100) }.value
        #expect(preferring.allSatisfy { $0 })
        #expect(unpreferred.allSatisfy { !$0 })
    }

    static func threadName() -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard rb_thread_get_name(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import Backends
import RuntimeKit
import Testing

/// RuntimeKit's executors (and fifo-dispatch's own): a task that prefers a runtime's task executor
/// calls between two actors of one serial executor as plain calls, without going through the
/// queue, because the queue's job names the task executor the task prefers (`RunningJob`). Speed,
/// not isolation, is at stake, so this is a test of the executors rather than a conformance
/// scenario: nio's event loops, Swift's default actors and NIO as the global executor are left out.
@Suite("executors: calls between actors of one serial executor continue in place")
struct ExecutorHopTests {
    /// The backends whose serial executor is RuntimeKit's `SerialQueueExecutor` or fifo-dispatch's
    /// queue; the others keep their own rules.
    static let backends: [Backend] = [
        .init(.pthreadMutex), .init(.workStealing), .init(.fifoDispatch),
        .init(.libdispatch), .init(.libdispatchC),
    ]

    actor Caller {
        let executor: any SerialExecutor
        /// Jobs of tasks this actor started; they run between two calls only if a call went
        /// through the queue.
        private var ticks = 0

        init(executor: any SerialExecutor) { self.executor = executor }

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func receive() {}
        func tick() { ticks += 1 }
        func ticked() -> Int { ticks }

        /// Before each of `rounds` calls to `partner` (same executor), starts a task isolated to
        /// this actor, whose job goes onto the queue; returns how many calls one ran before.
        func rally(with partner: Caller, rounds: Int) async -> Int {
            var callsBehindJobs = 0
            for _ in 0..<rounds {
                Task { self.tick() }
                let before = ticks
                await partner.receive()
                if ticks != before { callsBehindJobs += 1 }
            }
            return callsBehindJobs
        }
    }

    enum Start: String, CaseIterable, CustomTestStringConvertible {
        case preferringPool = "a task preferring the runtime's task executor"
        case noPreference = "a task with no preference"
        var testDescription: String { rawValue }
    }

    @Test(arguments: backends, Start.allCases)
    func callsContinueInPlace(backend: Backend, start: Start) async throws {
        try await check(backend.runtime, start: start)
    }

    private func check<R: ConcurrencyRuntime>(_: R.Type, start: Start) async throws {
        let runtime = R(workers: 2)
        defer { runtime.shutdown() }
        let executor = try #require(runtime.makeSerialExecutor(label: "one executor, two actors"))
        let taskExecutor = try #require(runtime.makeTaskExecutor())
        let first = Caller(executor: executor)
        let second = Caller(executor: executor)
        // The task comes to the queue by a hop from a job of the pool or of Swift's.
        let rounds = 10_000
        let behind =
            switch start {
            case .preferringPool:
                await Task(executorPreference: taskExecutor) { await first.rally(with: second, rounds: rounds) }.value
            case .noPreference:
                await Task { await first.rally(with: second, rounds: rounds) }.value
            }
        #expect(behind == 0, "\(behind) of \(rounds) calls went through the queue, behind a job started before them")
        // The started tasks were not lost: each ticks once.
        while await first.ticked() < rounds { await Task.yield() }
    }
}

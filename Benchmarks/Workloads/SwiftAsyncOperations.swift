import Harness
import Results
import RuntimeKit
import Synchronization

/// What a swift-async run's task reports, read by the measuring thread: how far it got (for a
/// timeout's message) and what it found (each pattern's own check).
final class AsyncTally: Sendable {
    /// Operations done, added every 1,024 and at the end of each run.
    let progress = Atomic<Int>(0)
    /// What the runs' tasks counted, summed.
    let found = Atomic<Int>(0)

    /// Called after operation `index` of a run (0-based) of `count`: publishes progress in steps,
    /// so the loop pays an atomic add once per 1,024 operations.
    @inline(__always)
    func advanced(to index: Int, of count: Int) {
        if index & 1023 == 1023 {
            progress.wrappingAdd(1024, ordering: .relaxed)
        } else if index == count - 1 {
            progress.wrappingAdd(count & 1023, ordering: .relaxed)
        }
    }
}

/// The measuring thread's side of a swift-async pattern: each run is one task, preferring the
/// backend's task executor, that does `count` operations and returns what it counted; the
/// measuring thread waits for it with a deadline, so a lost job fails the case instead of hanging
/// it.
final class AsyncDriver {
    let tally = AsyncTally()
    private let completion: SpawnCompletion
    private let executor: (any TaskExecutor)?
    private let body: @Sendable (Int, AsyncTally) async -> Int
    /// Operations asked for over every run.
    private(set) var expected = 0

    init(
        units: String, executor: (any TaskExecutor)?, timeout: Duration,
        body: @escaping @Sendable (Int, AsyncTally) async -> Int
    ) {
        completion = SpawnCompletion(units: units, timeout: timeout)
        self.executor = executor
        self.body = body
    }

    func run(_ count: Int) throws {
        let start = tally.progress.load(ordering: .relaxed)
        expected += count
        let (latch, tally, body) = (completion.latch, tally, body)
        try completion.run(
            count, arrivals: 1,
            submit: {
                Task(executorPreference: executor) {
                    tally.found.wrappingAdd(await body(count, tally), ordering: .relaxed)
                    latch.arrive()
                }
            }, done: { tally.progress.load(ordering: .relaxed) - start })
    }

    /// After the runtime has been shut down: the run's task came back every time, and what the
    /// runs counted (their own results, or the pattern's state) is what they were asked for.
    func verify() throws {
        let counted = tally.found.load(ordering: .relaxed)
        try completion.verify([(counted - expected, "operations counted minus operations asked for")])
    }
}

/// An actor that counts its calls: `ExecutorActor` on a backend's serial executor,
/// `DefaultExecutorActor` on Swift's own.
protocol CallCounting: Actor {
    func call()
    var calls: Int { get }
}

actor ExecutorActor: CallCounting {
    private let executor: any SerialExecutor
    private(set) var calls = 0

    init(executor: any SerialExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func call() { calls &+= 1 }
}

actor DefaultExecutorActor: CallCounting {
    private(set) var calls = 0

    func call() { calls &+= 1 }
}

/// `swift-async`, pattern `actor-call`: one operation is one call to an actor from the run's task.
/// Each run reports how far the actor's own count of calls moved (two hops more per run, which a
/// batch amortizes), so the check is the actor's state, read on its executor.
final class AsyncActorCall<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let driver: AsyncDriver

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        let executor = runtime.makeTaskExecutor()
        driver =
            if let serial = runtime.makeSerialExecutor(label: "swift-async actor") {
                Self.driving(ExecutorActor(executor: serial), executor, timeout)
            } else {
                Self.driving(DefaultExecutorActor(), executor, timeout)
            }
    }

    private static func driving<A: CallCounting>(_ target: A, _ executor: (any TaskExecutor)?, _ timeout: Duration)
        -> AsyncDriver
    {
        AsyncDriver(units: "actor calls", executor: executor, timeout: timeout) { count, tally in
            let before = await target.calls
            for index in 0..<count {
                await target.call()
                tally.advanced(to: index, of: count)
            }
            return await target.calls - before
        }
    }

    func run(_ count: Int) throws { try driver.run(count) }

    func finish() throws {
        runtime.shutdown()
        try driver.verify()
    }
}

/// `swift-async`, pattern `task-group-child`: one operation is one empty child added to a task
/// group and its result awaited; the children inherit the run's executor preference.
final class AsyncTaskGroupChild<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let driver: AsyncDriver

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        driver = AsyncDriver(units: "task group children", executor: runtime.makeTaskExecutor(), timeout: timeout) {
            count, tally in
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<count { group.addTask { 1 } }
                var sum = 0
                for await one in group {
                    tally.advanced(to: sum, of: count)
                    sum += one
                }
                return sum
            }
        }
    }

    func run(_ count: Int) throws { try driver.run(count) }

    func finish() throws {
        runtime.shutdown()
        try driver.verify()
    }
}

/// `swift-async`, pattern `task`: one operation is one empty unstructured task, created with the
/// backend's executor preference, and its value awaited.
final class AsyncUnstructuredTask<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let driver: AsyncDriver

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        let executor = runtime.makeTaskExecutor()
        driver = AsyncDriver(units: "unstructured tasks", executor: executor, timeout: timeout) { count, tally in
            var sum = 0
            for index in 0..<count {
                sum += await Task(executorPreference: executor) { 1 }.value
                tally.advanced(to: index, of: count)
            }
            return sum
        }
    }

    func run(_ count: Int) throws { try driver.run(count) }

    func finish() throws {
        runtime.shutdown()
        try driver.verify()
    }
}

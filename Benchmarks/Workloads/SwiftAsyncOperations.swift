import CaseCatalogue
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
                let run: @Sendable () async -> Void = {
                    tally.found.wrappingAdd(await body(count, tally), ordering: .relaxed)
                    latch.arrive()
                }
                // Swift's default executors get a plain task: one made with a nil preference
                // costs more, and so do the children it passes it to
                // (tools/swift-reference/async-operations.swift measures both).
                if let executor { Task(executorPreference: executor, operation: run) } else { Task(operation: run) }
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

/// A swift-async pattern's operation: the runtime it owns and the driver of its runs.
final class AsyncOperation<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let driver: AsyncDriver

    init(runtime: R, driver: AsyncDriver) {
        self.runtime = runtime
        self.driver = driver
    }

    func run(_ count: Int) throws { try driver.run(count) }

    func finish() throws {
        runtime.shutdown()
        try driver.verify()
    }
}

/// What one run of each pattern does: `count` operations, from a task that prefers the runtime's
/// task executor, returning what it counted (which `AsyncDriver.verify` compares with what was
/// asked for).
enum AsyncRunBody {
    typealias Body = @Sendable (Int, AsyncTally) async -> Int

    static func body<R: ConcurrencyRuntime>(_ pattern: AsyncPattern, on runtime: R) -> Body {
        switch pattern {
        case .actorCall: actorCalls(on: runtime, callers: 1)
        case .actorContended: actorCalls(on: runtime, callers: 2 * runtime.workers)
        case .taskGroupChild: taskGroupChildren
        case .asyncLet: asyncLets
        case .task: tasks(preferring: runtime.makeTaskExecutor())
        case .yield: yields
        case .continuation: continuations(resumedBy: runtime)
        case .stream: streamElements
        }
    }

    /// `callers` tasks of a task group share the run's calls to one actor on the runtime's serial
    /// executor. What the run counted is how far the actor's own count moved (two hops more per
    /// run, which a batch amortizes): the actor's state, read on its executor.
    private static func actorCalls<R: ConcurrencyRuntime>(on runtime: R, callers: Int) -> Body {
        if let serial = runtime.makeSerialExecutor(label: "swift-async actor") {
            actorCalls(to: ExecutorActor(executor: serial), callers: callers)
        } else {
            actorCalls(to: DefaultExecutorActor(), callers: callers)
        }
    }

    private static func actorCalls<A: CallCounting>(to target: A, callers: Int) -> Body {
        { count, tally in
            let before = await target.calls
            if callers == 1 {
                for index in 0..<count {
                    await target.call()
                    tally.advanced(to: index, of: count)
                }
            } else {
                await withTaskGroup(of: Void.self) { group in
                    for caller in 0..<callers {
                        let share = count / callers + (caller < count % callers ? 1 : 0)
                        group.addTask {
                            for _ in 0..<share { await target.call() }
                        }
                    }
                }
                tally.advanced(to: count - 1, of: count)
            }
            return await target.calls - before
        }
    }

    /// Every child is added, then every result awaited: fan-out and fan-in.
    private static let taskGroupChildren: Body = { count, tally in
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

    private static let asyncLets: Body = { count, tally in
        var sum = 0
        for index in 0..<count {
            async let one = 1
            sum += await one
            tally.advanced(to: index, of: count)
        }
        return sum
    }

    /// An unstructured task inherits no executor preference, so each is given the runtime's; on
    /// Swift's default executors a plain `Task`, since one made with a nil preference costs more.
    private static func tasks(preferring executor: (any TaskExecutor)?) -> Body {
        guard let executor else {
            return { count, tally in
                var sum = 0
                for index in 0..<count {
                    sum += await Task { 1 }.value
                    tally.advanced(to: index, of: count)
                }
                return sum
            }
        }
        return { count, tally in
            var sum = 0
            for index in 0..<count {
                sum += await Task(executorPreference: executor) { 1 }.value
                tally.advanced(to: index, of: count)
            }
            return sum
        }
    }

    private static let yields: Body = { count, tally in
        for index in 0..<count {
            await Task.yield()
            tally.advanced(to: index, of: count)
        }
        return count
    }

    /// The task suspends on a continuation that a block on the runtime's pool resumes: a resume
    /// from another thread, and the task's job enqueued again on its executor.
    private static func continuations<R: ConcurrencyRuntime>(resumedBy runtime: R) -> Body {
        { count, tally in
            var sum = 0
            for index in 0..<count {
                sum += await withUnsafeContinuation { continuation in
                    runtime.async { continuation.resume(returning: 1) }
                }
                tally.advanced(to: index, of: count)
            }
            return sum
        }
    }

    /// A child task yields `count` elements into an AsyncStream that the run's task consumes.
    private static let streamElements: Body = { count, tally in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        async let produced: Void = {
            for _ in 0..<count { continuation.yield(1) }
            continuation.finish()
        }()
        var sum = 0
        for await one in stream {
            tally.advanced(to: sum, of: count)
            sum += one
        }
        await produced
        return sum
    }
}

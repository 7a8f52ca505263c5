import CBodyCost
import CaseCatalogue
import Harness
import PThreadPrimitives
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

    /// Publishes `operations` more done at once, for a loop that reports in larger steps.
    func advanced(by operations: Int) { progress.wrappingAdd(operations, ordering: .relaxed) }
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

/// An actor that calls `NonisolatedWork.run` in a loop: each call leaves the actor for the task's
/// preferred executor (or Swift's pool) and comes back.
protocol NonisolatedCalling: Actor {
    func call(_ count: Int) async -> Int
}

extension NonisolatedCalling {
    func call(_ count: Int) async -> Int {
        let work = NonisolatedWork()
        for _ in 0..<count { await work.run() }
        return work.runs.load(ordering: .relaxed)
    }
}

actor NonisolatedCaller: NonisolatedCalling {
    private let executor: any SerialExecutor

    init(executor: any SerialExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

actor DefaultNonisolatedCaller: NonisolatedCalling {}

/// The nonisolated function and its state. `@concurrent`: it runs on the task's preferred
/// executor (or Swift's pool) whatever the module's default for nonisolated async functions; its
/// add is a side effect it must run there, so the compiler keeps the hop onto it (an empty
/// function's could be left out).
final class NonisolatedWork: Sendable {
    let runs = Atomic<Int>(0)

    @inline(never)
    @concurrent nonisolated func run() async { runs.add(1, ordering: .relaxed) }
}

/// A swift-async pattern's operation: the runtime it owns, the driver of its runs, and the
/// latencies its pattern keeps, if any.
final class AsyncOperation<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let driver: AsyncDriver
    private let latencies: AsyncLatencies?

    init(runtime: R, driver: AsyncDriver, latencies: AsyncLatencies?) {
        self.runtime = runtime
        self.driver = driver
        self.latencies = latencies
    }

    func run(_ count: Int) throws { try driver.run(count) }

    func beginSamples() { latencies?.reset() }

    var workloadMetrics: [String: WorkloadMetric] { latencies?.metrics ?? [:] }

    func finish() throws {
        runtime.shutdown()
        try driver.verify()
    }
}

/// What one swift-async case runs: the pattern, and the parameters some patterns have.
struct AsyncCase: Sendable {
    let pattern: AsyncPattern
    /// actor-contended: the tasks calling the actor at once.
    var callers = 1
    /// task-group-child: what each child does.
    var body = BodyCost(nanoseconds: 0)

    /// The prefix of the latencies the pattern keeps, or nil.
    var latencyPrefix: String? {
        switch pattern {
        case .actorHop, .actorHopShared: "hop_ns"
        case .continuation: "resume_ns"
        default: nil
        }
    }
}

/// What one run of each pattern does: `count` operations, from a task that prefers the runtime's
/// task executor, returning what it counted (which `AsyncDriver.verify` compares with what was
/// asked for).
enum AsyncRunBody {
    typealias Body = @Sendable (Int, AsyncTally) async -> Int

    /// `latencies` is given for the patterns that keep them (`AsyncCase.latencyPrefix`).
    static func body<R: ConcurrencyRuntime>(_ asyncCase: AsyncCase, on runtime: R, latencies: AsyncLatencies?) -> Body {
        switch asyncCase.pattern {
        case .actorCall: actorCalls(on: runtime, callers: 1)
        case .actorContended: actorCalls(on: runtime, callers: asyncCase.callers)
        case .actorHop: hops(on: runtime, shared: false, latencies: latencies ?? AsyncLatencies(prefix: "hop_ns"))
        case .actorHopShared:
            hops(on: runtime, shared: true, latencies: latencies ?? AsyncLatencies(prefix: "hop_ns"))
        case .taskGroupChild:
            asyncCase.body.nanoseconds == 0 ? taskGroupChildren : taskGroupChildren(spinning: asyncCase.body.spinRounds)
        case .nonisolatedCall: nonisolatedCalls(on: runtime, preferring: true)
        case .nonisolatedCallUnpreferred: nonisolatedCalls(on: runtime, preferring: false)
        case .asyncLet: asyncLets
        case .task: tasks(preferring: runtime.makeTaskExecutor())
        case .yield: yields
        case .continuation:
            continuations(resumedBy: runtime, latencies: latencies ?? AsyncLatencies(prefix: "resume_ns"))
        case .stream: streamElements
        }
    }

    /// Two actors, each on a serial executor of its own, call each other in turn from the first:
    /// every call a hop there and its return a hop back. What the run counted is the hops the
    /// partner received and their returns; an odd count's last return is not one of the run's.
    /// `shared`: both actors on the first's executor, so a call between them needs no switch
    /// (Swift's own default actors cannot share one: they then hop as unshared ones do).
    private static func hops<R: ConcurrencyRuntime>(on runtime: R, shared: Bool, latencies: AsyncLatencies) -> Body {
        if let first = runtime.makeSerialExecutor(label: "swift-async hop 1"),
            let second = shared ? first : runtime.makeSerialExecutor(label: "swift-async hop 2")
        {
            hops(
                between: HopActor(executor: first, latencies: latencies),
                and: HopActor(executor: second, latencies: latencies), latencies: latencies)
        } else {
            hops(
                between: DefaultHopActor(latencies: latencies), and: DefaultHopActor(latencies: latencies),
                latencies: latencies)
        }
    }

    private static func hops<A: HopSide>(between first: A, and second: A, latencies: AsyncLatencies) -> Body {
        { count, tally in
            let before = await second.received
            _ = await first.rally(with: second, rounds: (count + 1) / 2, latencies: latencies, tally: tally)
            return 2 * (await second.received - before) - (count & 1)
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
                // The compiler leaves out the hop back to the task's executor after a call only
                // when every path from it reaches another hop before code that needs that
                // executor. A plain loop of calls ends in one (the direct reference reads the count
                // next); progress published after each call, or after the loop, keeps the hop back
                // on every call: 2.5× to 200× the reference (bench fidelity). So each chunk of
                // calls ends with a read of the actor's count, and progress comes after it. The
                // hop back is then once per chunk, and on libdispatch it wakes a thread both ways
                // (about 45 µs here): chunks of 1,024 calls read 67 ns per call against the
                // reference's 23, so a chunk is 65,536 calls.
                var done = 0
                while done < count {
                    let chunk = min(1 << 16, count - done)
                    for _ in 0..<chunk { await target.call() }
                    _ = await target.calls
                    done += chunk
                    tally.advanced(by: chunk)
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
                tally.advanced(by: count)
            }
            return await target.calls - before
        }
    }

    /// An actor on the runtime's serial executor calls a nonisolated async function `count` times
    /// (each call a hop off the actor and one back), from the run's task, which prefers the
    /// runtime's task executor, or from an unstructured task, which has no preference (SE-0417:
    /// `Task { }` does not inherit one). What the run counted is the function's own count.
    private static func nonisolatedCalls<R: ConcurrencyRuntime>(on runtime: R, preferring: Bool) -> Body {
        if let serial = runtime.makeSerialExecutor(label: "swift-async nonisolated") {
            nonisolatedCalls(from: NonisolatedCaller(executor: serial), preferring: preferring)
        } else {
            nonisolatedCalls(from: DefaultNonisolatedCaller(), preferring: preferring)
        }
    }

    private static func nonisolatedCalls<A: NonisolatedCalling>(from caller: A, preferring: Bool) -> Body {
        { count, tally in
            let calls = preferring ? await caller.call(count) : await Task { await caller.call(count) }.value
            tally.advanced(by: count)
            return calls
        }
    }

    /// Every child is added, then every result awaited: fan-out and fan-in.
    private static let taskGroupChildren: Body = { count, tally in
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<count { group.addTask { 1 } }
            return await sum(of: &group, count: count, tally: tally)
        }
    }

    /// The same with children that spin for `rounds` (a body's cost), which the children of one
    /// group run in parallel on the executor's threads.
    private static func taskGroupChildren(spinning rounds: UInt64) -> Body {
        { count, tally in
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        rb_spin(rounds)
                        return 1
                    }
                }
                return await sum(of: &group, count: count, tally: tally)
            }
        }
    }

    private static func sum(of group: inout TaskGroup<Int>, count: Int, tally: AsyncTally) async -> Int {
        var sum = 0
        for await one in group {
            tally.advanced(to: sum, of: count)
            sum += one
        }
        return sum
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
    /// The latency kept is from the clock read just before `resume` to the task running again.
    private static func continuations<R: ConcurrencyRuntime>(resumedBy runtime: R, latencies: AsyncLatencies) -> Body {
        { count, tally in
            var sum = 0
            for index in 0..<count {
                let resumedAt = await withUnsafeContinuation { continuation in
                    runtime.async { continuation.resume(returning: MonotonicInstant.now.nanoseconds) }
                }
                latencies.record(since: resumedAt)
                sum += 1
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

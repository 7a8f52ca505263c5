import PThreadPrimitives
import RuntimeKit
import Synchronization

/// The runtime's executors (`makeTaskExecutor`, `makeSerialExecutor`) under Swift concurrency:
/// every job once, an actor's jobs one at a time and in order, and the task executor preference
/// passed on to child tasks. On a runtime that keeps Swift's own executors (nil), the first two
/// check those.
enum ExecutorScenarios {
    static let children = 10_000
    static let callers = 8, callsPerCaller = 12_500

    static let all: [ConformanceScenario] = [
        ConformanceScenario(
            .executors, "a task group of 10,000 children preferring the runtime's task executor runs each exactly once"
        ) {
            try taskGroupEveryChildOnce($0)
        },
        ConformanceScenario(
            .executors,
            "an actor on the runtime's serial executor: 100,000 calls from 8 tasks, each once, never two at once"
        ) { try actorCallsOnceNeverOverlapping($0) },
        ConformanceScenario(
            .executors,
            "tasks an actor on the runtime's serial executor starts run in the order it started them",
            requires: [.ownExecutors]
        ) { try serialExecutorKeepsOrder($0) },
        ConformanceScenario(
            .executors,
            "task group children and async let inherit the task executor preference; code outside does not",
            requires: [.ownExecutors]
        ) { try preferenceInherited($0) },
    ]

    private static func taskGroupEveryChildOnce<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let executor = runtime.makeTaskExecutor()
            let ledger = RunLedger(count: children)
            try runAsync {
                await withTaskExecutorPreference(executor) {
                    await withTaskGroup(of: Void.self) { group in
                        for index in 0..<children { group.addTask { ledger.record(index) } }
                    }
                }
            }
            try require(ledger.mistakes() == nil, ledger.mistakes() ?? "")
        }
    }

    private static func actorCallsOnceNeverOverlapping<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let tally = CallTally(count: callers * callsPerCaller)
            let call: @Sendable (Int) async -> Void
            if let executor = runtime.makeSerialExecutor(label: "actor") {
                let counter = QueueActor(executor: executor, tally: tally)
                call = { await counter.call($0) }
            } else {
                let counter = DefaultActor(tally: tally)
                call = { await counter.call($0) }
            }
            try runAsync {
                await withTaskGroup(of: Void.self) { group in
                    for caller in 0..<callers {
                        group.addTask {
                            for index in 0..<callsPerCaller { await call(caller * callsPerCaller + index) }
                        }
                    }
                }
            }
            try require(tally.ledger.mistakes() == nil, tally.ledger.mistakes() ?? "")
            let overlaps = tally.overlaps.load(ordering: .relaxed)
            try require(overlaps == 0, "two calls of one actor ran at once \(overlaps) times")
        }
    }

    /// Each task the actor starts is isolated to it, so its first job is enqueued on the actor's
    /// executor as it is created: a serial executor must run them in that order.
    private static func serialExecutorKeepsOrder<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let tasks = 2_000
        try withRuntime(type) { runtime in
            guard let executor = runtime.makeSerialExecutor(label: "order") else { return }
            let recorder = OrderActor(executor: executor)
            let order = try runAsync { await recorder.startAndCollect(tasks) }
            try require(
                order == Array(0..<tasks),
                "tasks ran out of the order they were started in: first out of place at \(firstMismatch(order, tasks))")
        }
    }

    private static func preferenceInherited<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            guard let executor = runtime.makeTaskExecutor() else { return }
            let expected = executor.asUnownedTaskExecutor()
            let onExecutor: @Sendable () -> Bool = { withUnsafeCurrentTask { $0?.unownedTaskExecutor == expected } }
            let seen = try runAsync {
                await withTaskExecutorPreference(executor) {
                    let children = await withTaskGroup(of: Bool.self) { group in
                        for _ in 0..<100 { group.addTask { onExecutor() } }
                        return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                    }
                    async let child = onExecutor()
                    return (children, await child, onExecutor())
                }
            }
            let outside = try runAsync { onExecutor() }
            try require(seen.0 == 100, "\(seen.0) of 100 task group children ran with the preferred executor")
            try require(seen.1, "an async let child did not inherit the preferred executor")
            try require(seen.2, "the body of withTaskExecutorPreference did not run with the preferred executor")
            try require(!outside, "a task outside withTaskExecutorPreference reported the preferred executor")
        }
    }
}

/// Runs `body` as a task and waits for it on the calling (scenario) thread, which is not one of
/// the pools involved.
private func runAsync<T: Sendable>(_ body: @escaping @Sendable () async -> T) throws -> T {
    let done = MutexSemaphore(value: 0)
    let result = Mutex<T?>(nil)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    guard let value = result.withLock({ $0 }) else {
        throw ConformanceFailure(description: "the task ended with no result")
    }
    return value
}

/// What the actors record: each call once, and whether two calls ever ran at once.
private final class CallTally: Sendable {
    let ledger: RunLedger
    let inside = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)

    init(count: Int) { ledger = RunLedger(count: count) }

    func record(_ index: Int) {
        if inside.exchange(true, ordering: .acquiring) { overlaps.wrappingAdd(1, ordering: .relaxed) }
        ledger.record(index)
        spin(20)
        inside.store(false, ordering: .releasing)
    }
}

private actor QueueActor {
    let executor: any SerialExecutor
    let tally: CallTally

    init(executor: any SerialExecutor, tally: CallTally) {
        self.executor = executor
        self.tally = tally
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func call(_ index: Int) { tally.record(index) }
}

private actor DefaultActor {
    let tally: CallTally

    init(tally: CallTally) { self.tally = tally }

    func call(_ index: Int) { tally.record(index) }
}

private actor OrderActor {
    let executor: any SerialExecutor
    private var order: [Int] = []

    init(executor: any SerialExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func startAndCollect(_ count: Int) async -> [Int] {
        let tasks = (0..<count).map { index in Task { self.order.append(index) } }
        for task in tasks { await task.value }
        return order
    }
}

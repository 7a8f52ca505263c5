import Harness
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// A `direct` reference for swift-async: the operation as plain Swift on the backend's executors
/// (`makeTaskExecutor`, `makeSerialExecutor`; Swift's own where they are nil), in a loop inside one
/// task per run, which the measuring thread waits for on a POSIX semaphore. What the suite adds
/// and this leaves out: the driver's closure, the progress it publishes every 1,024 operations,
/// and the deadline of its wait.
///
/// Checked like the suite's case: each run returns what it counted (the actor's own count, the
/// children's and tasks' sums), compared with the operations asked for after every run.
final class AsyncDirectOperation<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let loop: @Sendable (Int) async -> Int
    private let executor: (any TaskExecutor)?
    private let done = POSIXSemaphore(value: 0)
    private let counted = AsyncCount()
    private var asked = 0

    init(_ operation: Direct.Operation, runtime: R) {
        precondition(operation.isAsync, "\(operation) is not an async operation")
        self.runtime = runtime
        executor = runtime.makeTaskExecutor()
        switch operation {
        case .actorCall:
            if let serial = runtime.makeSerialExecutor(label: "direct actor") {
                loop = Self.calls(to: ExecutorActor(executor: serial))
            } else {
                loop = Self.calls(to: DefaultExecutorActor())
            }
        case .taskGroupChild:
            loop = { count in
                await withTaskGroup(of: Int.self) { group in
                    for _ in 0..<count { group.addTask { 1 } }
                    var sum = 0
                    for await one in group { sum += one }
                    return sum
                }
            }
        default:
            if let executor = runtime.makeTaskExecutor() {
                loop = { count in
                    var sum = 0
                    for _ in 0..<count { sum += await Task(executorPreference: executor) { 1 }.value }
                    return sum
                }
            } else {
                loop = { count in
                    var sum = 0
                    for _ in 0..<count { sum += await Task { 1 }.value }
                    return sum
                }
            }
        }
    }

    private static func calls<A: CallCounting>(to target: A) -> @Sendable (Int) async -> Int {
        { count in
            let before = await target.calls
            for _ in 0..<count { await target.call() }
            return await target.calls - before
        }
    }

    func run(_ count: Int) throws {
        asked += count
        let (loop, done, counted) = (loop, done, counted)
        let run: @Sendable () async -> Void = {
            counted.value.wrappingAdd(await loop(count), ordering: .relaxed)
            _ = done.signal()
        }
        if let executor { Task(executorPreference: executor, operation: run) } else { Task(operation: run) }
        done.wait()
        // The semaphore's wait orders the task's add before this load.
        let found = counted.value.load(ordering: .relaxed)
        guard found == asked else {
            throw WorkloadError.verificationFailed("\(found) async operations counted, \(asked) were asked for")
        }
    }

    func finish() throws { runtime.shutdown() }
}

/// What a reference's runs counted, shared with their tasks.
private final class AsyncCount: Sendable {
    let value = Atomic<Int>(0)
}

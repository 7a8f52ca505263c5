// Reference for swift-async: the same operations written directly in plain Swift, with no suite
// layer, on Swift's default executors and on executors over libdispatch written here in a few
// lines (a task executor on a concurrent DispatchQueue, a serial executor on a serial one).
// Prints ns per operation for each; run it as several processes and compare each median with the
// suite's swift-concurrency and libdispatch rows of one sitting.
// Build and run (from the repository root):
//   swiftc -O tools/swift-reference/async-operations.swift -o /tmp/async-operations
//   for i in 1 2 3 4 5; do /tmp/async-operations; done
import Dispatch
import Foundation

final class QueueTaskExecutor: TaskExecutor {
    let queue = DispatchQueue(label: "reference.pool", attributes: .concurrent)
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

final class QueueSerialExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "reference.actor")
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

actor DefaultCounter {
    var calls = 0
    func call() { calls &+= 1 }
}

actor QueueCounter {
    let executor = QueueSerialExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    var calls = 0
    func call() { calls &+= 1 }
}

/// Runs `body` as a task preferring `executor` and waits for it on this (main) thread.
func timed(
    _ count: Int, preferring executor: (any TaskExecutor)?, _ body: @escaping @Sendable (Int) async -> Int
) -> Double {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var elapsed = 0.0
    let run: @Sendable () async -> Void = {
        let start = DispatchTime.now().uptimeNanoseconds
        let counted = await body(count)
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
        precondition(counted == count, "counted \(counted) of \(count)")
        done.signal()
    }
    // A task made with a nil preference costs more than a plain one, and so do its children.
    if let executor { Task(executorPreference: executor, operation: run) } else { Task(operation: run) }
    done.wait()
    return elapsed
}

let count = 200_000
let dispatchExecutor = QueueTaskExecutor()
let defaultActor = DefaultCounter(), queueActor = QueueCounter()
let operations: [(String, (any TaskExecutor)?, @Sendable (Int) async -> Int)] = [
    ("actor-call default", nil, { n in for _ in 0..<n { await defaultActor.call() }; return n }),
    ("actor-call dispatch", dispatchExecutor, { n in for _ in 0..<n { await queueActor.call() }; return n }),
    ("task-group-child default", nil, { n in
        await withTaskGroup(of: Int.self) { g in for _ in 0..<n { g.addTask { 1 } }; return await g.reduce(0, +) } }),
    ("task-group-child dispatch", dispatchExecutor, { n in
        await withTaskGroup(of: Int.self) { g in for _ in 0..<n { g.addTask { 1 } }; return await g.reduce(0, +) } }),
    ("task default", nil, { n in var s = 0; for _ in 0..<n { s += await Task { 1 }.value }; return s }),
    ("task dispatch", dispatchExecutor, { n in
        var s = 0; for _ in 0..<n { s += await Task(executorPreference: dispatchExecutor) { 1 }.value }; return s }),
]
for (name, executor, body) in operations {
    _ = timed(count / 10, preferring: executor, body)  // warm-up
    let samples = (0..<5).map { _ in timed(count, preferring: executor, body) }.sorted()
    let figure = String(format: "%8.1f ns/op (median of 5)", samples[2])
    print(name.padding(toLength: 28, withPad: " ", startingAt: 0), figure)
}

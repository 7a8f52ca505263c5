import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing

/// What a scenario found wrong, naming the scenario and the runtime.
public struct ConformanceFailure: Error, CustomStringConvertible {
    public let description: String
}

/// Throws a `ConformanceFailure` saying `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw ConformanceFailure(description: message()) }
}

/// Runs `body` on a thread of its own and waits for it without blocking Swift Testing's
/// cooperative threads (a runtime built on Swift concurrency needs them). If `body` has not
/// finished within the deadline, the test fails naming the scenario and the runtime, and the stuck
/// thread is abandoned so the rest of the tests still run.
func runScenario(_ scenario: String, on runtime: String, _ body: @escaping @Sendable () throws -> Void) async throws {
    let finished = MutexSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    let worker = PThread.spawn {
        do { try body() } catch { failure.withLock { $0 = error } }
        finished.signal()
    }
    let result: WaitResult = await withCheckedContinuation { continuation in
        PThread.spawn {
            continuation.resume(returning: finished.wait(timeout: Conformance.deadline))
        }.detach()
    }
    guard result == .success else {
        worker.detach()
        Issue.record(
            "deadlock or hang: scenario '\(scenario)' on \(runtime) did not finish within \(Conformance.deadline)")
        return
    }
    worker.join()
    if let error = failure.withLock({ $0 }) {
        throw ConformanceFailure(description: "scenario '\(scenario)' on \(runtime): \(error)")
    }
}

/// Creates a runtime of type `R` with one worker per CPU, runs `body`, shuts the runtime down.
func withRuntime<R: ConcurrencyRuntime>(_: R.Type, _ body: (R) throws -> Void) rethrows {
    let runtime = R(workers: 0)
    defer { runtime.shutdown() }
    try body(runtime)
}

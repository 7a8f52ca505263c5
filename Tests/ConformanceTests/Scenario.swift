import Backends
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing

/// The backends the conformance suite runs on: all registered ones, or the comma-separated ids in
/// CONFORMANCE_BACKENDS, to run fewer (the ThreadSanitizer run in .ci/run includes every backend:
/// this toolchain's TSan intercepts libdispatch; should it ever report inside libdispatch, that
/// run can leave out its adapters with this variable).
let conformanceBackends: [Backend] = {
    guard let wanted = Environment.value("CONFORMANCE_BACKENDS"), !wanted.isEmpty else { return Backends.all }
    let ids = wanted.split(separator: ",").map { String($0).trimmingWhitespace() }
    for id in ids where Backends.named(id) == nil {
        fatalError("CONFORMANCE_BACKENDS names '\(id)', which is not a backend; known: \(Backends.ids.joined(separator: ", "))")
    }
    return Backends.all.filter { ids.contains($0.id) }
}()

/// How long one scenario may take before it counts as a deadlock. Generous: a passing scenario
/// takes well under a second, but under ThreadSanitizer on a busy 2-core machine it can be 50×
/// slower, and a hang is what this catches, not slowness.
/// CONFORMANCE_DEADLINE_SECONDS shortens it, to count hangs over many runs without waiting five
/// minutes for each.
let scenarioDeadline: Duration = {
    guard let text = Environment.value("CONFORMANCE_DEADLINE_SECONDS") else { return .seconds(300) }
    guard let seconds = Int(text), seconds > 0 else {
        fatalError("CONFORMANCE_DEADLINE_SECONDS is '\(text)', not a whole number of seconds above 0")
    }
    return .seconds(seconds)
}()

/// A failed expectation inside a scenario, carried out of the scenario's thread as an error.
struct ScenarioFailure: Error, CustomStringConvertible {
    let description: String
}

/// Throws a `ScenarioFailure` saying `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw ScenarioFailure(description: message()) }
}

/// Cancels the current test case as "not applicable" when `backend` declares `behaviour`
/// unsupported. Swift Testing 6.3's console output shows a cancelled case as passed, so the
/// reason is also printed on a line of its own, where a reader of the CI log sees it.
func requireSupport(_ behaviour: RuntimeBehaviour, on backend: Backend, in scenario: String) throws {
    if let reason = backend.unsupported[behaviour] {
        let message = "not applicable: '\(scenario)' on \(backend.id): \(behaviour) unsupported: \(reason)"
        print("⊘ skipped: \(message)")
        try Test.cancel(Comment(rawValue: message))
    }
}

/// Runs `body` on a thread of its own and waits for it without blocking Swift Testing's
/// cooperative threads (the swift-concurrency backend needs them). If `body` has not finished
/// within the deadline, the test fails naming the scenario and the backend, and the stuck thread
/// is abandoned so the rest of the suite still runs.
func runScenario(
    _ scenario: String,
    on backend: Backend,
    _ body: @escaping @Sendable () throws -> Void
) async throws {
    let finished = MutexSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    let worker = PThread.spawn {
        do { try body() } catch { failure.withLock { $0 = error } }
        finished.signal()
    }
    let result: WaitResult = await withCheckedContinuation { continuation in
        PThread.spawn {
            continuation.resume(returning: finished.wait(timeout: scenarioDeadline))
        }.detach()
    }
    guard result == .success else {
        worker.detach()
        Issue.record("deadlock or hang: scenario '\(scenario)' on backend \(backend.id) did not finish within \(scenarioDeadline)")
        return
    }
    worker.join()
    if let error = failure.withLock({ $0 }) {
        throw ScenarioFailure(description: "scenario '\(scenario)' on backend \(backend.id): \(error)")
    }
}

/// Creates a runtime of type `R` with one worker per CPU, runs `body`, shuts the runtime down.
func withRuntime<R: ConcurrencyRuntime>(_: R.Type, _ body: (R) throws -> Void) rethrows {
    let runtime = R(workers: 0)
    defer { runtime.shutdown() }
    try body(runtime)
}

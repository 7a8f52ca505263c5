import Backends
import RuntimeKit
import Synchronization
import Testing

@Suite("shutdown: runs what was submitted, idempotent")
struct ShutdownConformance {
    @Test("shutdown() with work still queued runs it all before returning", arguments: conformanceBackends)
    func shutdownRunsQueuedWork(backend: Backend) async throws {
        try requireSupport(.shutdownWaitsForWork, on: backend, in: "shutdown drains")
        try await runScenario("shutdown drains", on: backend) { try shutdownRunsQueuedWork(backend.runtime) }
    }

    @Test("a second shutdown() is harmless", arguments: conformanceBackends)
    func secondShutdownIsHarmless(backend: Backend) async throws {
        try await runScenario("second shutdown", on: backend) { secondShutdown(backend.runtime) }
    }

    private func shutdownRunsQueuedWork<R: ConcurrencyRuntime>(_: R.Type) throws {
        let blocks = 10_000, childrenEvery = 10
        let runtime = R(workers: 0)
        let ran = Atomic<Int>(0)
        for index in 0..<blocks {
            runtime.async {
                spin(200)
                ran.wrappingAdd(1, ordering: .relaxed)
                // Some blocks submit more work while shutdown is already under way.
                if index % childrenEvery == 0 {
                    runtime.async { ran.wrappingAdd(1, ordering: .relaxed) }
                }
            }
        }
        runtime.shutdown()
        let expected = blocks + blocks / childrenEvery
        let count = ran.load(ordering: .relaxed)
        try require(count == expected, "shutdown() returned after \(count) of \(expected) submitted blocks had run")
        runtime.shutdown()
    }

    private func secondShutdown<R: ConcurrencyRuntime>(_: R.Type) {
        let runtime = R(workers: 0)
        runtime.async {}
        runtime.shutdown()
        runtime.shutdown()
    }
}

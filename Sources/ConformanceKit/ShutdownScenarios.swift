import RuntimeKit
import Synchronization

/// shutdown: runs what was submitted, idempotent.
enum ShutdownScenarios {
    static let all: [ConformanceScenario] = [
        ConformanceScenario(
            .shutdown,
            "shutdown() with work still queued runs it all before returning",
            requires: [.shutdownWaitsForWork]
        ) { try shutdownRunsQueuedWork($0) },
        ConformanceScenario(.shutdown, "a second shutdown() is harmless") { secondShutdown($0) },
    ]

    private static func shutdownRunsQueuedWork<R: ConcurrencyRuntime>(_: R.Type) throws {
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

    private static func secondShutdown<R: ConcurrencyRuntime>(_: R.Type) {
        let runtime = R(workers: 0)
        runtime.async {}
        runtime.shutdown()
        runtime.shutdown()
    }
}

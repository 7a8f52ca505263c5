import Harness
import RuntimeKit

/// `spawn`, pattern `outside`: the measuring thread submits `count` empty tasks with
/// `runtime.async` and waits for the last one. One operation is one task. The task is one closure
/// built once, so submitting it allocates nothing of ours: what a task costs is the runtime's.
final class SpawnFromOutside<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let completion: SpawnCompletion
    private let task: @Sendable () -> Void

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        completion = SpawnCompletion(units: "tasks submitted from outside the pool", timeout: timeout)
        let latch = completion.latch
        task = { latch.arrive() }
    }

    func run(_ count: Int) throws {
        let latch = completion.latch
        try completion.run(count, arrivals: count, submit: {
            for _ in 0..<count { runtime.async(task) }
        }, done: { count - latch.outstanding })
    }

    func finish() throws {
        runtime.shutdown()
        try completion.verify()
    }
}

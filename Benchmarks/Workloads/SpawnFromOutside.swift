import Harness
import Results
import RuntimeKit

/// `spawn`, pattern `outside`: the measuring thread submits `count` empty tasks with
/// `runtime.async` and waits for the last one. One operation is one task. The task is one
/// `FunctionBlock` built once, so submitting it allocates nothing of ours: what a task costs is the
/// runtime's (libdispatch-c takes it with `dispatch_async_f`, no closure boxed per task).
final class SpawnFromOutside<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let completion: SpawnCompletion
    /// The submitting loop, a closure made in `init`, which runs specialized for the backend:
    /// written in `run`, reached through `any MeasuredOperation`, it would call the runtime through
    /// witness tables, and a slower producer lets the workers go idle between tasks, so each task
    /// would pay a wake-up (Benchmarks/README.md, "What the references found").
    private let submit: (Int) -> Void

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        completion = SpawnCompletion(units: "tasks submitted from outside the pool", timeout: timeout)
        let task = completion.latch.arrival
        submit = { count in for _ in 0..<count { runtime.async(task) } }
    }

    func run(_ count: Int) throws {
        let latch = completion.latch
        try completion.run(count, arrivals: count, submit: { submit(count) }, done: { count - latch.outstanding })
    }

    func finish() throws {
        runtime.shutdown()
        try completion.verify()
    }
}

import Harness
import RuntimeKit
import Synchronization

/// `group`, pattern `fan-out`: rounds of fan-out and fan-in. The measuring thread submits
/// `width` (2 × workers: every worker has a second task queued behind its first) empty tasks
/// with `async(group:)`, then waits for the group; the same group serves every round. One
/// operation is one task; a round's `wait` (a wake-up of the measuring thread) is shared by its
/// tasks, as it would be in a program that fans out.
///
/// Each task only counts itself, with the one atomic read-modify-write `spawn`'s tasks do, so
/// the two are comparable. A `wait` that returns must find every task of the round counted (a
/// group that wakes its waiter early fails the case); one that times out fails it with the
/// count, and the operation stays failed (the lost task may still turn up later).
final class GroupFanOut<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let group: R.Group
    private let width: Int
    private let timeout: Duration
    private let tally = FanOutTally()
    /// Submits one round of `wave` tasks: a closure made in `init`, so it runs specialized for
    /// the backend (see `SpawnFromOutside.submit`). The task is built once, so it allocates
    /// nothing of ours: a `FunctionBlock`, which libdispatch-c submits with
    /// `dispatch_group_async_f` and no closure boxed per task.
    private let submitWave: (Int) -> Void
    private var submitted = 0
    private var failure: WorkloadError?

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        self.timeout = timeout
        group = runtime.makeGroup()
        width = 2 * max(1, runtime.workers)
        let task = tally.task, group = group
        submitWave = { wave in for _ in 0..<wave { runtime.async(group: group, task) } }
    }

    func run(_ count: Int) throws {
        if let failure { throw failure }
        var left = count
        while left > 0 {
            let wave = min(width, left)
            submitWave(wave)
            submitted += wave
            left -= wave
            let waited = group.wait(timeout: timeout)
            let ran = tally.ran.load(ordering: .relaxed)
            if waited == .success && ran == submitted { continue }
            let failure = WorkloadError.verificationFailed(
                waited == .timedOut ? "only \(ran) of \(submitted) tasks of the group ran within \(timeout); the runtime lost a task or the group never emptied"
                : ran < submitted ? "group.wait returned with \(ran) of \(submitted) tasks run: it did not wait for the whole group"
                : "\(ran) tasks ran for \(submitted) submitted: a task ran twice")
            self.failure = failure
            throw failure
        }
    }

    func finish() throws {
        runtime.shutdown()
        if let failure { throw failure }
        let ran = tally.ran.load(ordering: .relaxed)
        guard ran == submitted else {
            throw WorkloadError.verificationFailed("\(ran) tasks ran, \(submitted) were submitted to the group")
        }
    }
}

/// What fan-out's tasks count themselves in; not generic, so its C function can be formed.
final class FanOutTally: Sendable {
    let ran = Atomic<Int>(0)

    /// One task: its closure holds the tally (a stray task of a wrong backend finds it still
    /// there); its C form reaches it unretained, safe because the closure's hold outlives it.
    var task: FunctionBlock {
        FunctionBlock(context: Unmanaged.passUnretained(self).toOpaque(), Self.count, closure: { [self] in count() })
    }

    // relaxed: the group orders every task's end before the `wait` that returns after it (a
    // leave happens before the wait it ends), so the count read there is complete.
    func count() { ran.wrappingAdd(1, ordering: .relaxed) }

    private static let count: WorkFunction = { context in
        Unmanaged<FanOutTally>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.count() }
    }
}

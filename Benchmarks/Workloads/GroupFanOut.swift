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
    private final class Tally: Sendable {
        let ran = Atomic<Int>(0)
    }

    private let runtime: R
    private let group: R.Group
    private let width: Int
    private let timeout: Duration
    private let tally = Tally()
    /// Built once, so a task allocates nothing of ours.
    private let task: @Sendable () -> Void
    private var submitted = 0
    private var failure: WorkloadError?

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        self.timeout = timeout
        group = runtime.makeGroup()
        width = 2 * max(1, runtime.workers)
        let tally = self.tally
        // relaxed: the group orders every task's end before the `wait` that returns after it
        // (a leave happens before the wait it ends), so the count read there is complete.
        task = { tally.ran.wrappingAdd(1, ordering: .relaxed) }
    }

    func run(_ count: Int) throws {
        if let failure { throw failure }
        var left = count
        while left > 0 {
            let wave = min(width, left)
            for _ in 0..<wave { runtime.async(group: group, task) }
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

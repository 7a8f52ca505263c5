import Harness
import Results
import RuntimeKit
import Synchronization

/// `group`, patterns `fan-out` and `fan-out-oversubscribed`: rounds of fan-out and fan-in. A
/// submitter submits `width` (2 × workers: every worker has a second task queued behind its
/// first) empty tasks with `async(group:)`, then waits for the group; the same group serves every
/// round. One operation is one task; a round's `wait` (a wake-up of the submitter) is shared by
/// its tasks, as it would be in a program that fans out.
///
/// `fan-out` has one submitter, the measuring thread. `fan-out-oversubscribed` has 2 × CPUs
/// dedicated submitter threads (`ThreadCrew`), each with its own group, fanning out onto the one
/// runtime at once and sharing each round's tasks evenly: with the workers that makes more busy
/// threads than CPUs, so a runtime whose waits spin before they sleep takes CPU from the threads
/// that would end those waits.
///
/// Each task only counts itself, with the one atomic read-modify-write `spawn`'s tasks do, so
/// the two are comparable. A `wait` that returns must find every task of the submitter's round
/// counted (a group that wakes its waiter early fails the case); one that times out fails it
/// with the count, and the operation stays failed (the lost task may still turn up later).
final class GroupFanOut<R: ConcurrencyRuntime>: MeasuredOperation {
    /// One submitter's group, tally and count.
    private final class Submitter: @unchecked Sendable {
        let group: R.Group
        let tally = FanOutTally()
        /// Submits one round of `wave` tasks: a closure made in `init`, so it runs specialized
        /// for the backend (see `SpawnFromOutside.submit`). The task is built once, so it
        /// allocates nothing of ours: a `FunctionBlock`, which libdispatch-c submits with
        /// `dispatch_group_async_f` and no closure boxed per task.
        let submitWave: (Int) -> Void
        /// Tasks submitted so far; only this submitter's thread touches it during a round.
        var submitted = 0

        init(runtime: R) {
            let group = runtime.makeGroup(), task = tally.task
            self.group = group
            submitWave = { wave in for _ in 0..<wave { runtime.async(group: group, task) } }
        }

        /// `count` tasks in rounds of at most `width`, each round waited for.
        func fanOut(_ count: Int, width: Int, timeout: Duration) -> WorkloadError? {
            var left = count
            while left > 0 {
                let wave = min(width, left)
                submitWave(wave)
                submitted += wave
                left -= wave
                let waited = group.wait(timeout: timeout)
                let ran = tally.ran.load(ordering: .relaxed)
                if waited == .success && ran == submitted { continue }
                return .verificationFailed(
                    waited == .timedOut
                        ? "only \(ran) of \(submitted) tasks of the group ran within \(timeout); "
                            + "the runtime lost a task or the group never emptied"
                        : ran < submitted
                            ? "group.wait returned with \(ran) of \(submitted) tasks run: "
                                + "it did not wait for the whole group"
                            : "\(ran) tasks ran for \(submitted) submitted: a task ran twice")
            }
            return nil
        }
    }

    private let runtime: R
    private let width: Int
    private let timeout: Duration
    private let submitters: [Submitter]
    /// The dedicated submitter threads; nil with one submitter (the measuring thread).
    private var crew: ThreadCrew?
    private var failure: WorkloadError?

    init(runtime: R, submitters: Int = 1, timeout: Duration) {
        precondition(submitters >= 1, "fan-out needs at least one submitter")
        self.runtime = runtime
        self.timeout = timeout
        width = 2 * max(1, runtime.workers)
        let all = (0..<submitters).map { _ in Submitter(runtime: runtime) }
        self.submitters = all
        if submitters > 1 {
            crew = ThreadCrew(members: submitters, timeout: timeout) { [width] member, round in
                all[member].fanOut(round.share(of: member, among: all.count), width: width, timeout: timeout)
            }
        }
    }

    func run(_ count: Int) throws {
        if let failure { throw failure }
        let failed: WorkloadError?
        if let crew {
            do {
                try crew.run(count) { submitters.reduce(0) { $0 + $1.tally.ran.load(ordering: .relaxed) } }
                failed = nil
            } catch {
                failed = error
            }
        } else {
            failed = submitters[0].fanOut(count, width: width, timeout: timeout)
        }
        if let failed {
            failure = failed
            throw failed
        }
    }

    func finish() throws {
        crew?.stop()
        if let spent = crew?.spent, failure == nil { failure = spent }
        crew = nil
        runtime.shutdown()
        if let failure { throw failure }
        for (index, submitter) in submitters.enumerated() {
            let ran = submitter.tally.ran.load(ordering: .relaxed)
            guard ran == submitter.submitted else {
                let whose = submitters.count == 1 ? "" : " (submitter \(index))"
                throw WorkloadError.verificationFailed(
                    "\(ran) tasks ran, \(submitter.submitted) were submitted to the group\(whose)")
            }
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

import Harness
import Results
import RuntimeKit
import PThreadPrimitives
import Synchronization

/// What the blocks of a spawn pattern report to: a count of arrivals still due and a one-shot
/// wake-up of the measuring thread by the arrival that brings it to zero. Not the runtime's
/// group, whose own cost would then be measured with the tasks: one atomic decrement per
/// arrival, and one semaphore hand-off per `run`, which a batch amortizes.
///
/// The count is cumulative over a whole case: `expect` raises it before the work is submitted,
/// arrivals lower it. A block that never runs leaves it positive, a block that runs twice makes
/// it negative (and may wake the measuring thread early, which only a wrong backend can do; its
/// case fails at `finish()` anyway).
final class CountdownLatch: Sendable {
    private let due = Atomic<Int>(0)
    private let wakeUp = MutexSemaphore(value: 0)

    /// Announces `arrivals` more arrivals. Call before submitting the work that makes them.
    func expect(_ arrivals: Int) {
        // relaxed: the submission that follows orders this before every arrival it causes, and
        // read-modify-writes of one atomic always see each other in that order.
        due.wrappingAdd(arrivals, ordering: .relaxed)
    }

    func arrive() {
        // releasing: publishes this block's writes to the measuring thread; acquiring: chains the
        // writes of the arrivals before it, so the one that reaches zero carries them all into
        // the semaphore, whose mutex hands them to the waiter.
        if due.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
            wakeUp.signal()
        }
    }

    /// A block that arrives: its closure holds the latch (a stray block of a wrong backend, run
    /// after the case, still finds it); its C form reaches it unretained, which is safe because
    /// the closure's hold outlives every submission.
    var arrival: FunctionBlock {
        FunctionBlock(context: Unmanaged.passUnretained(self).toOpaque(), Self.arrive, closure: { [self] in arrive() })
    }

    private static let arrive: WorkFunction = { context in
        Unmanaged<CountdownLatch>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.arrive() }
    }

    /// Waits until every expected arrival has come, for at most `timeout`. False on timeout.
    func wait(timeout: Duration) -> Bool {
        wakeUp.wait(timeout: timeout) == .success
    }

    /// Arrivals still due (negative: more arrivals than were expected).
    var outstanding: Int { due.load(ordering: .acquiring) }
}

/// The measuring thread's side of a spawn pattern: starts one `run`, waits for it with a
/// deadline, and turns a lost block into a failed case with the numbers instead of a hung child.
/// After a timeout the operation is spent: the lost block may still turn up and arrive for a
/// later run, so every later `run` and `finish` rethrows the first failure.
final class SpawnCompletion {
    let latch = CountdownLatch()
    let timeout: Duration
    /// The operations of this pattern, plural, for messages: "tasks", "links", "hops".
    let units: String
    private var failure: WorkloadError?

    init(units: String, timeout: Duration) {
        precondition(timeout > .zero, "a spawn pattern needs a positive timeout")
        self.units = units
        self.timeout = timeout
    }

    /// Runs `count` operations: announces `arrivals`, calls `submit`, waits for the arrivals.
    /// On timeout, `done()` says how many of the `count` operations ran, for the message.
    func run(_ count: Int, arrivals: Int, submit: () -> Void, done: () -> Int) throws(WorkloadError) {
        if let failure { throw failure }
        guard count > 0 else { return }
        precondition(arrivals > 0, "a run of \(count) \(units) must expect at least one arrival")
        latch.expect(arrivals)
        submit()
        if latch.wait(timeout: timeout) { return }
        let failure = WorkloadError.verificationFailed(
            "only \(done()) of \(count) \(units) ran within \(timeout); the runtime lost work or stalled")
        self.failure = failure
        throw failure
    }

    /// After the runtime has been shut down: every arrival came, exactly once, and `leftovers`
    /// (what the pattern still had to do, each with its meaning) are all zero.
    func verify(_ leftovers: [(count: Int, meaning: String)] = []) throws(WorkloadError) {
        if let failure { throw failure }
        var problems: [String] = []
        let outstanding = latch.outstanding
        if outstanding > 0 { problems.append("\(outstanding) arrivals never came") }
        if outstanding < 0 { problems.append("\(-outstanding) arrivals more than expected: a block ran twice") }
        for leftover in leftovers where leftover.count != 0 {
            problems.append("\(leftover.meaning): \(leftover.count), not 0")
        }
        if !problems.isEmpty {
            throw .verificationFailed("\(units): " + problems.joined(separator: "; "))
        }
    }
}

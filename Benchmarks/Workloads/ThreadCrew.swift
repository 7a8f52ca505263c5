import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The dedicated threads of a semaphore pattern (two ping-pong sides, four pool users, a
/// producer and a consumer): plain pthreads, not a runtime's pool, so what is measured is the
/// semaphore and not a scheduler. Created once per case; each `run` is one round in which every
/// member runs its part of `count` operations.
///
/// A round starts with one `MutexSemaphore` signal per member and ends with a `CountdownLatch`
/// (SpawnCompletion.swift): both are outside the pattern's semaphores, once per round, and a
/// sample's round is calibrated to 10 ms, so they amortize to nothing.
///
/// Deadlines: a member only ever blocks in the pattern's semaphores, with `wait(timeout:)`, and a
/// wait that times out ends its part with a `verificationFailed` saying which operation never
/// came. So every round ends, and a lost signal is a failed case with a clear message, never a
/// hang. The measuring thread still gives up if the members make no progress for twice that
/// timeout (a semaphore whose timed wait never returns), so that a member's own message, due
/// after one timeout, normally wins. After any failure the crew is spent: a late signal could
/// still be in flight, so every later `run` rethrows the first failure.
///
/// `@unchecked Sendable`: `round` and `stopping` are written by the measuring thread before it
/// signals the members' start semaphores and read by members after their wait returns (the
/// semaphore's mutex orders the two); the rest is immutable, atomic or under a mutex.
final class ThreadCrew: @unchecked Sendable {
    /// The operations of one round, numbered over the whole case: `first ..< first + count`.
    struct Round: Sendable {
        let first: Int
        let count: Int
        var operations: Range<Int> { first..<(first + count) }

        /// Member `member`'s even share of the round's `count` operations among `members`: the
        /// first `count % members` members take one more.
        func share(of member: Int, among members: Int) -> Int {
            count / members + (member < count % members ? 1 : 0)
        }
    }

    /// One member's part of a round; nil when it did all of it, the failure otherwise.
    typealias Part = @Sendable (_ member: Int, _ round: Round) -> WorkloadError?

    let timeout: Duration
    let members: Int
    private let starts: [MutexSemaphore]
    private let finished = CountdownLatch()
    /// The first member failure of the round, under `failureLock`: a pthread mutex, not the
    /// standard library's `Mutex`, whose futex ThreadSanitizer cannot see (two members failing in
    /// one round were reported as a race; tools/tsan-suppressions.txt has the details).
    private let failureLock = PThreadMutex()
    private var firstFailure: WorkloadError?
    private var threads: [PThread] = []
    private var round = Round(first: 0, count: 0)
    private var stopping = false
    /// Operations completed by earlier rounds.
    private(set) var completed = 0
    /// The failure that spent the crew.
    private var failure: WorkloadError?
    /// True once the measuring thread gave up on members that may still be running.
    private var abandoned = false

    /// Starts `members` threads that wait for rounds; with `cpus`, member `m` pins itself to
    /// `cpus[m]` first, and a member that cannot fails every round with why.
    /// - Precondition: `members >= 1`, `timeout > .zero`, `cpus` nil or one set per member.
    init(members: Int, timeout: Duration, cpus: [[Int]]? = nil, part: @escaping Part) {
        precondition(members >= 1, "a crew has at least one member")
        precondition(timeout > .zero, "a crew needs a positive timeout")
        precondition(cpus == nil || cpus!.count == members, "one CPU set per member")
        self.members = members
        self.timeout = timeout
        starts = (0..<members).map { _ in MutexSemaphore(value: 0) }
        threads = (0..<members).map { member in
            PThread.spawn { [self] in
                if let mine = cpus?[member], UsableCPUs.setAffinityOfCallingThread(mine) != 0 {
                    let error = WorkloadError.notApplicable(
                        "member \(member) could not be pinned to CPUs \(mine) (errno \(errno))")
                    failureLock.withLock { firstFailure = firstFailure ?? error }
                }
                serve(as: member, part: part)
            }
        }
    }

    private func serve(as member: Int, part: Part) {
        while true {
            starts[member].wait()  // idle between rounds: nothing to bound
            if stopping { return }
            if let error = part(member, round) {
                failureLock.withLock { firstFailure = firstFailure ?? error }
            }
            finished.arrive()
        }
    }

    /// Runs one round of `count` operations and returns when every member has done its part.
    /// `progress()` counts what the members have done so far, in any unit that grows while they
    /// work; it is read when the round starts and each time it outlasts twice the timeout.
    func run(_ count: Int, progress: () -> Int) throws(WorkloadError) {
        if let failure { throw failure }
        guard count > 0 else { return }
        round = Round(first: completed, count: count)
        finished.expect(members)
        for start in starts { start.signal() }
        var seen = progress()
        while !finished.wait(timeout: timeout * 2) {
            let now = progress()
            if now == seen {
                abandoned = true
                let failure = WorkloadError.verificationFailed(
                    "no progress for \(timeout * 2) in a round of \(count) operations (progress \(now)): "
                        + "a member is stuck in a semaphore call whose timeout did not fire")
                self.failure = failure
                throw failure
            }
            seen = now
        }
        if let failure = failureLock.withLock({ firstFailure }) {
            self.failure = failure
            throw failure
        }
        completed += count
    }

    /// Ends the members' threads and joins them (unless they were abandoned mid-round, when they
    /// are left to end with the process). Idempotent. Call before verifying what they did.
    func stop() {
        guard !threads.isEmpty else { return }
        defer { threads = [] }
        if abandoned { return }
        stopping = true
        for start in starts { start.signal() }
        for thread in threads { thread.join() }
    }

    /// The failure that spent the crew, if any.
    var spent: WorkloadError? { failure }
}

import Harness
import Results
import PThreadPrimitives

/// The threads (or tasks) of one queue-vs-lock case, hammering one guard. `perform` runs one
/// quota of critical sections to the end; `stop` releases the participants.
protocol Contention: AnyObject {
    var quota: SectionQuota { get }
    /// Performs `sections` critical sections across the participants, each followed by the
    /// case's outside work, and returns when all have been performed (or submitted, for the
    /// `async` queue; `settle` then waits for them).
    func perform(_ sections: Int) throws(WorkloadError)
    /// Waits for sections still queued and checks the resource after `expected` sections.
    func settle(expected: Int) -> String?
    func stop()
}

/// Contending pthreads: the measuring thread is participant 0, so a single-thread case has no
/// other thread to wake and measures the guard alone; participants 1… are dedicated threads
/// that wait for each run's start signal.
final class ContendingThreads: Contention, @unchecked Sendable {
    let quota: SectionQuota
    private let resourceGuard: any ResourceGuard
    private let sections: SectionLoop
    private let outsideRounds: UInt64
    private let timeout: Duration
    private let starts: [MutexSemaphore]
    private let finished = CountdownLatch()
    private var threads: [PThread] = []
    /// Written by the measuring thread before it signals the starts (a mutex hand-off).
    private var stopping = false

    init(threads: Int, guarding resourceGuard: any ResourceGuard, outsideRounds: UInt64, timeout: Duration) {
        quota = SectionQuota(participants: threads)
        self.resourceGuard = resourceGuard
        sections = resourceGuard.sections
        self.outsideRounds = outsideRounds
        self.timeout = timeout
        starts = (1..<max(1, threads)).map { _ in MutexSemaphore(value: 0) }
        for participant in 1..<max(1, threads) {
            let start = starts[participant - 1]
            self.threads.append(
                PThread.spawn { [unowned self] in
                    while true {
                        start.wait()
                        if stopping { return }
                        contend(as: participant)
                        finished.arrive()
                    }
                })
        }
    }

    private func contend(as participant: Int) {
        let sections = sections  // once per run: calling the stored property would retain its context per call
        while case let granted = quota.claim(for: participant), granted > 0 {
            sections(granted, outsideRounds)
        }
    }

    func perform(_ count: Int) throws(WorkloadError) {
        if starts.isEmpty {
            // Alone, the measuring thread takes the whole quota at once: claiming it in chunks (an
            // atomic read-modify-write per 16 sections) adds to an uncontended guard's few
            // nanoseconds (Benchmarks/README.md, "queue-vs-lock") and divides nothing among nobody.
            quota.grantAll(count, to: 0)
            sections(count, outsideRounds)
            return
        }
        quota.fill(count)
        finished.expect(starts.count)
        for start in starts { start.signal() }
        contend(as: 0)
        if !finished.wait(timeout: timeout) {
            throw .verificationFailed(
                "\(finished.outstanding) of \(starts.count) contending threads did not finish within \(timeout)")
        }
    }

    func settle(expected: Int) -> String? { resourceGuard.settle(expected: expected) }

    func stop() {
        stopping = true
        for start in starts { start.signal() }
        for thread in threads { thread.join() }
        threads = []
    }
}

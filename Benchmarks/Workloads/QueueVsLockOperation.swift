import Harness
import Results

/// One queue-vs-lock case in the child: runs quotas of critical sections through a `Contention`,
/// checks the resource after every run, and reports how fairly the sections were shared.
final class QueueVsLockOperation: MeasuredOperation {
    private let contention: any Contention
    private let shutdown: () -> Void
    private var performed = 0
    private var failure: WorkloadError?
    private var sharesAtStart: [Int]?

    init(_ contention: any Contention, shutdown: @escaping () -> Void = {}) {
        self.contention = contention
        self.shutdown = shutdown
    }

    func run(_ count: Int) throws {
        if let failure { throw failure }
        do {
            try contention.perform(count)
        } catch {
            failure = error
            throw error
        }
        performed += count
        // Part of the timed run on purpose: for the async queue this is where its sections run.
        if let wrong = contention.settle(expected: performed) {
            failure = .verificationFailed(wrong)
            throw failure!
        }
    }

    func beginSamples() { contention.quota.resetShares() }

    func finish() throws {
        contention.stop()
        shutdown()
        if let failure { throw failure }
    }

    /// The least and the most one participant performed, each as a fraction of an equal share.
    var workloadMetrics: [String: WorkloadMetric] {
        let shares = contention.quota.shares
        let total = shares.reduce(0, +)
        guard shares.count > 1, total > 0 else { return [:] }
        let fair = Double(total) / Double(shares.count)
        return [
            "fairness.min_share": WorkloadMetric(Double(shares.min()!) / fair, unit: .share),
            "fairness.max_share": WorkloadMetric(Double(shares.max()!) / fair, unit: .share),
        ]
    }
}

import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// `group`, pattern `notify`: how soon a group's notify block runs after the group empties. Each
/// operation: the measuring thread enters the group, registers a notify block on a serial queue
/// of the runtime, and submits a pool task that stamps the time and leaves; the notify block
/// stamps the time it starts, records the difference, and wakes the measuring thread, which
/// waits for it (with a deadline) before the next operation. One group and one queue serve the
/// whole case. `notify_ns.p50` and `.p99` are over the samples only.
///
/// The notify is registered before the leaving task exists, so the group is never empty when
/// it is registered: every notify is triggered by a `leave`, never run at once.
///
/// Verified: the notify block finds the leave of its own operation already done (a notify that
/// runs before the group emptied is caught), and every operation got exactly one notify.
///
/// `@unchecked Sendable`: `current` is written by the measuring thread before the `enter` of
/// its operation and read by that operation's blocks, which the submission orders after it;
/// the next write waits for the notify block's wake-up. `latencies` and the notify records are
/// written by notify blocks (one at a time, on a serial queue, each before its wake-up) and
/// read or reset by the measuring thread between operations. The blocks are built once and
/// hold `self`: `finish()` breaks the cycle.
final class GroupNotify<R: ConcurrencyRuntime>: MeasuredOperation, @unchecked Sendable {
    private let runtime: R
    private let group: R.Group
    private let queue: R.Queue
    private let timeout: Duration
    /// Wakes the measuring thread once an operation's notify block has run.
    private let notified = MutexSemaphore(value: 0)
    /// The number of the operation under way.
    private var current = 0
    /// The last operation whose task left the group, and when (MonotonicInstant ns).
    private let leftOperation = Atomic<Int>(-1)
    private let leftAt = Atomic<Int64>(0)
    private var latencies = LatencyHistogram()
    private var notifications = 0
    /// The first notify that ran before its operation's leave: (operation, last leave seen).
    private var earlyNotify: (operation: Int, lastLeave: Int)?
    private var leaveTask: (@Sendable () -> Void)?
    private var notifyBlock: (@Sendable () -> Void)?
    private var failure: WorkloadError?

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        self.timeout = timeout
        group = runtime.makeGroup()
        queue = runtime.makeSerialQueue(label: "group.notify")
        leaveTask = { [self] in
            leftAt.store(MonotonicInstant.now.nanoseconds, ordering: .relaxed)
            leftOperation.store(current, ordering: .relaxed)
            group.leave()
        }
        notifyBlock = { [self] in
            let ranAt = MonotonicInstant.now.nanoseconds
            // relaxed: a correct group orders the leave before the notify it triggers, so these
            // loads see that leave's stores; a stale number here can only mean the notify ran
            // before the leave, which is what the check catches.
            let lastLeave = leftOperation.load(ordering: .relaxed)
            if lastLeave == current {
                latencies.record(nanoseconds: ranAt - leftAt.load(ordering: .relaxed))
            } else if earlyNotify == nil {
                earlyNotify = (current, lastLeave)
            }
            notifications += 1
            notified.signal()
        }
    }

    func run(_ count: Int) throws {
        if let failure { throw failure }
        for _ in 0..<count {
            group.enter()
            group.notify(on: queue, notifyBlock!)
            runtime.async(leaveTask!)
            guard notified.wait(timeout: timeout) == .success else {
                let task = leftOperation.load(ordering: .relaxed) == current ? "left the group" : "never left"
                let failure = WorkloadError.verificationFailed(
                    "the notify block of operation \(current) did not run within \(timeout) (its task \(task)); "
                        + "the runtime lost a task or a notify")
                self.failure = failure
                throw failure
            }
            current += 1
        }
    }

    func beginSamples() { latencies.reset() }

    var workloadMetrics: [String: WorkloadMetric] { latencies.percentileMetrics(prefix: "notify_ns") }

    func finish() throws {
        runtime.shutdown()
        if let failure { throw failure }
        leaveTask = nil
        notifyBlock = nil
        var problems: [String] = []
        if let earlyNotify {
            problems.append(
                "the notify of operation \(earlyNotify.operation) ran before its leave "
                    + "(the last leave done was \(earlyNotify.lastLeave))")
        }
        if notifications != current { problems.append("\(notifications) notify blocks ran for \(current) operations") }
        guard problems.isEmpty else {
            throw WorkloadError.verificationFailed("notify: " + problems.joined(separator: "; "))
        }
    }
}

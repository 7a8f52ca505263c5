import CaseCatalogue
import Backends
import Harness
import Results
import RuntimeKit

/// `spawn`: what it costs to start a unit of work, in four patterns (the `pattern` parameter):
///
/// | pattern | one operation |
/// | --- | --- |
/// | `outside` | one empty task submitted with `async` by the measuring thread, outside the pool |
/// | `chain` | one link of a chain in which every task submits the next |
/// | `queue-pingpong` | one hop of a message bounced between two serial queues with `async` |
/// | `queue-ring` | one hop of a message around a ring of 1,000 serial queues, 8 messages in flight |
///
/// Tests the guide's claims that queued tasks are "much more efficient than the corresponding
/// threaded code" and "start running … more quickly than if you created the thread yourself";
/// `thread-spawn` is the thread-per-task side of that comparison.
///
/// `run(count)` returns when all `count` operations have run. Each pattern counts its blocks and
/// waits for them with a deadline (`SpawnCompletion`): a lost block fails the case with "only k
/// of n ran", never hangs the child. No pattern blocks inside a task (only the measuring thread,
/// which is outside the pool, waits), so every backend can run every pattern, including
/// swift-concurrency (`RuntimeBehaviour.blockingWaitInsideWork`).
public struct Spawn: PatternWorkload {
    /// How long each run waits for its operations (`defaultTimeout` in a child; tests that run
    /// next to ThreadSanitizer'd stress tests on two cores give healthy backends longer).
    public let timeout: Duration

    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.spawn.rawValue
    public let summary =
        "starting work: empty tasks from outside the pool, chained tasks, serial-queue ping-pong and ring"
    public let operation = "one task, link or hop (see the pattern)"
    public let usesBackend = true

    public typealias Pattern = SpawnPattern

    /// How long `run` waits for its operations before failing the case. Thirty seconds: a run of
    /// a correct backend takes milliseconds (its batch is calibrated to a 10 ms sample), and it
    /// stays under the child's default 60-second deadline, so a lost block is reported as such,
    /// not as a hang. (Under ThreadSanitizer, next to stress tests on two cores, Swift's
    /// cooperative pool, which the swift-concurrency backend runs on, was seen to get no CPU for
    /// longer than that: the tests give healthy backends `healthyTimeout`.)
    public static let defaultTimeout: Duration = .seconds(30)

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        // Smoke: the chain alone, which goes through both doors of the pool (the measuring
        // thread's submission and a task's) and the deadline-bounded wait.
        let patterns: [Pattern] = suite == .smoke ? [.chain] : Pattern.allCases
        return Self.parameterSets(patterns)
    }

    /// The operation of `pattern` on `runtime`, which it owns from now on (`finish()` shuts it
    /// down). Generic, so the tests can hand it a runtime that loses or repeats blocks, and a
    /// short `timeout` so a lost block fails the test in a fraction of a second.
    public static func operation<R: ConcurrencyRuntime>(
        _ pattern: Pattern, on runtime: R, timeout: Duration = Spawn.defaultTimeout
    ) -> any MeasuredOperation {
        switch pattern {
        case .outside: SpawnFromOutside(runtime: runtime, timeout: timeout)
        case .chain: SpawnChain(runtime: runtime, timeout: timeout)
        case .queuePingPong: SpawnQueuePingPong(runtime: runtime, timeout: timeout)
        case .queueRing: SpawnQueueRing(runtime: runtime, timeout: timeout)
        }
    }
}

import CaseCatalogue
import Backends
import Harness
import Results
import RuntimeKit

/// `group`: dispatch groups (shared/seeds/man-dispatch_group.txt), in three patterns (the
/// `pattern` parameter), on every backend:
///
/// pattern | one operation
/// --- | ---
/// `fan-out` | one empty task of a round: 2 × workers tasks submitted with `async(group:)`, then `wait` on the group
/// `fan-out-oversubscribed` | the same, from 2 × CPUs threads at once, each with its own group (full suite)
/// `notify` | one `enter`, a pool task that `leave`s, and the `notify` block that runs on a serial queue
/// `enter-leave` | one `enter` + `leave` pair on the measuring thread
///
/// `fan-out` is the guide's "Waiting on Groups of Queued Tasks": its ns/op is per task, so it
/// reads next to `spawn`'s `outside` pattern (the same empty tasks with their own countdown
/// instead of a group). `notify` measures how long after the last `leave` the notify block runs
/// (`notify_ns.p50`, `.p99`). `enter-leave` is the group's own bookkeeping, with nothing waiting.
///
/// Every pattern reuses one group for the whole case, as the man page allows ("the group may
/// … be reused"). Only the measuring thread, outside the pool, ever waits, and always with a
/// deadline: a lost task or notify fails the case with what was lost, never hangs the child. No
/// pattern blocks inside a task, so swift-concurrency runs them all.
public struct Groups: PatternWorkload {
    /// How long the measuring thread waits for a round or a notify before failing the case.
    public let timeout: Duration

    /// The default timeout is spawn's, for the same reasons (it waits for the pool, which
    /// another process or a sanitizer can starve for seconds).
    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.group.rawValue
    public let summary =
        "dispatch groups: fan-out/fan-in rounds of 2 × workers tasks (also from 2 × CPUs threads at once), "
        + "notify latency after the last leave (p50/p99), enter + leave"
    public let operation = "one task, notify or enter + leave pair (see the pattern)"
    public let usesBackend = true

    public typealias Pattern = GroupPattern

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        // No smoke set: spawn's chain already checks the pool and a deadline-bounded wait on
        // every backend, and the smoke suite must stay seconds long. The oversubscribed fan-out
        // only in the full suite, beside the oversubscribed ping-pong.
        let patterns: [Pattern] =
            switch suite {
            case .smoke: []
            case .quick: Pattern.allCases.filter { $0 != .fanOutOversubscribed }
            case .full: Pattern.allCases
            }
        return Self.parameterSets(patterns)
    }

    /// The operation of `pattern` on `runtime`, which it owns from now on (`finish()` shuts it
    /// down). Generic, so the tests can hand it a runtime that loses tasks, and a short `timeout`.
    public static func operation<R: ConcurrencyRuntime>(
        _ pattern: Pattern, on runtime: R, timeout: Duration = Spawn.defaultTimeout
    ) -> any MeasuredOperation {
        switch pattern {
        case .fanOut: GroupFanOut(runtime: runtime, timeout: timeout)
        case .fanOutOversubscribed:
            GroupFanOut(runtime: runtime, submitters: 2 * activeProcessorCount, timeout: timeout)
        case .notify: GroupNotify(runtime: runtime, timeout: timeout)
        case .enterLeave: GroupEnterLeave(runtime: runtime)
        }
    }
}

import Backends
import CaseCatalogue
import Harness
import Results
import RuntimeKit

/// `swift-async`: what Swift concurrency costs on each backend's executors. One operation, by
/// `pattern`:
///
/// - `actor-call`: one call to an actor from a task, uncontended. The actor runs on the backend's
///   serial executor and the calling task prefers its task executor, so each call is a hop onto the
///   actor's executor and back. `actor-contended`: the same with 2 × workers tasks calling at once.
/// - `task-group-child`: one empty child of a task group, added and its result awaited;
///   `async-let`: one empty `async let` child; `task`: one empty unstructured task created with the
///   backend's executor preference and its value awaited.
/// - `yield`: one `Task.yield()`; `continuation`: one continuation resumed by a block on the
///   backend's pool; `stream`: one element through an AsyncStream from a child task.
///
/// On swift-concurrency the executors are Swift's own: the cooperative pool and a default actor.
/// Each run is one task started from the measuring thread that does `count` operations; the
/// measuring thread waits for it with a deadline (`SpawnCompletion`), so a runtime that loses a job
/// fails the case with "only k of n", never hangs the child. Each run counts what it did (the
/// actor's own count of calls; the children's, tasks', resumes' and elements' sums), and
/// `finish()` compares that with what was asked for.
public struct SwiftAsync: PatternWorkload {
    public let timeout: Duration

    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.swiftAsync.rawValue
    public let summary =
        "Swift concurrency on each backend's executors: actor calls, task group children, async let, tasks, "
        + "yields, continuations, stream elements"
    public let operation = "one actor call, child, task, yield, resume or element (see the pattern)"
    public let usesBackend = true

    public typealias Pattern = AsyncPattern

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        switch suite {
        // Smoke: the actor call, which goes through both of a backend's executors.
        case .smoke: Self.parameterSets([.actorCall])
        // Quick: a hop, an actor under contention, a child and a task on every backend.
        case .quick: Self.parameterSets([.actorCall, .actorContended, .taskGroupChild, .task])
        case .full: Self.parameterSets(Pattern.allCases)
        }
    }

    public static func operation<R: ConcurrencyRuntime>(
        _ pattern: Pattern, on runtime: R, timeout: Duration = Spawn.defaultTimeout
    ) -> any MeasuredOperation {
        AsyncOperation(
            runtime: runtime,
            driver: AsyncDriver(
                units: pattern.units, executor: runtime.makeTaskExecutor(), timeout: timeout,
                body: AsyncRunBody.body(pattern, on: runtime)))
    }
}

import Backends
import CaseCatalogue
import Harness
import Results
import RuntimeKit

/// `swift-async`: what Swift concurrency costs on each backend's executors (the `pattern`
/// parameter):
///
/// - `actor-call`: one call to an actor from a task, uncontended. The actor runs on the backend's
///   serial executor and the calling task prefers its task executor, so each call is a hop onto the
///   actor's executor and back.
/// - `task-group-child`: one child of a task group, empty, added and its result awaited.
/// - `task`: one unstructured task, empty, created with the backend's executor preference and its
///   value awaited.
///
/// On swift-concurrency the executors are Swift's own: the cooperative pool and a default actor.
/// Each run is one task started from the measuring thread that does `count` operations; the
/// measuring thread waits for it with a deadline (`SpawnCompletion`), so a runtime that loses a job
/// fails the case with "only k of n", never hangs the child. Each pattern checks its own result at
/// `finish()`: the actor's count of calls, the children's and the tasks' sum.
public struct SwiftAsync: PatternWorkload {
    public let timeout: Duration

    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.swiftAsync.rawValue
    public let summary =
        "Swift concurrency on each backend's executors: an actor call, a task group child, an unstructured task"
    public let operation = "one actor call, task group child or task (see the pattern)"
    public let usesBackend = true

    public typealias Pattern = AsyncPattern

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        // Smoke: the actor call, which goes through both of a backend's executors.
        Self.parameterSets(suite == .smoke ? [.actorCall] : Pattern.allCases)
    }

    public static func operation<R: ConcurrencyRuntime>(
        _ pattern: Pattern, on runtime: R, timeout: Duration = Spawn.defaultTimeout
    ) -> any MeasuredOperation {
        switch pattern {
        case .actorCall: AsyncActorCall(runtime: runtime, timeout: timeout)
        case .taskGroupChild: AsyncTaskGroupChild(runtime: runtime, timeout: timeout)
        case .task: AsyncUnstructuredTask(runtime: runtime, timeout: timeout)
        }
    }
}

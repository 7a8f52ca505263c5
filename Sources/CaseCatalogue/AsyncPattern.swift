/// swift-async's `pattern`: which piece of Swift concurrency one operation is, run on the backend's
/// executors (`makeTaskExecutor`, `makeSerialExecutor`; Swift's own on swift-concurrency).
public enum AsyncPattern: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One call to an actor, uncontended, from a task, in a loop of calls (the compiler leaves out the
    /// hop back between consecutive calls to one actor).
    case actorCall = "actor-call"
    /// One call to an actor that `tasks` tasks call at once.
    case actorContended = "actor-contended"
    /// One hop between two actors on two serial executors that call each other in turn: the
    /// latency of a hop (`hop_ns.p50`, `.p99`).
    case actorHop = "actor-hop"
    /// The same two actors sharing one serial executor: what SE-0392 says sharing saves.
    case actorHopShared = "actor-hop-shared"
    /// One call from an actor on a serial executor to a nonisolated async function, which runs on
    /// the task executor the task prefers (the backend's), and back: what SE-0417's preference is for.
    case nonisolatedCall = "nonisolated-call"
    /// The same from a task with no preference: the function runs on Swift's cooperative pool.
    case nonisolatedCallUnpreferred = "nonisolated-call-unpreferred"
    /// One child of a task group, added and awaited: fan-out and fan-in per child; the child spins
    /// for `body`.
    case taskGroupChild = "task-group-child"
    /// One `async let` child, started and awaited.
    case asyncLet = "async-let"
    /// One unstructured task, created and its value awaited.
    case task
    /// One `Task.yield()`: the task's job enqueued again on its executor.
    case yield
    /// One continuation resumed by a block on the runtime's pool, and the task resumed: the resume
    /// latency (`resume_ns.p50`, `.p99`).
    case continuation
    /// One element through an AsyncStream, from a producing child task to the consuming task.
    case stream

    public var description: String { rawValue }

    /// The operations, plural, for messages ("only 3 of 20 actor calls ran").
    public var units: String {
        switch self {
        case .actorCall, .actorContended: "actor calls"
        case .actorHop, .actorHopShared: "actor hops"
        case .nonisolatedCall, .nonisolatedCallUnpreferred: "nonisolated calls"
        case .taskGroupChild: "task group children"
        case .asyncLet: "async let children"
        case .task: "unstructured tasks"
        case .yield: "yields"
        case .continuation: "continuation resumes"
        case .stream: "stream elements"
        }
    }

    /// Whether the case names how many tasks call the actor (`tasks`).
    public var hasCallers: Bool { self == .actorContended }

    /// Whether the case names the work of each child (`body`).
    public var hasBody: Bool { self == .taskGroupChild }
}

/// swift-async's `pattern`: which piece of Swift concurrency one operation is, run on the backend's
/// executors (`makeTaskExecutor`, `makeSerialExecutor`; Swift's own on swift-concurrency).
public enum AsyncPattern: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One call to an actor, uncontended, from a task: the hop onto its serial executor and back.
    case actorCall = "actor-call"
    /// One call to an actor that 2 × workers tasks call at once.
    case actorContended = "actor-contended"
    /// One child of a task group, added and awaited: fan-out and fan-in per child.
    case taskGroupChild = "task-group-child"
    /// One `async let` child, started and awaited.
    case asyncLet = "async-let"
    /// One unstructured task, created and its value awaited.
    case task
    /// One `Task.yield()`: the task's job enqueued again on its executor.
    case yield
    /// One continuation resumed by a block on the runtime's pool, and the task resumed.
    case continuation
    /// One element through an AsyncStream, from a producing child task to the consuming task.
    case stream

    public var description: String { rawValue }

    /// The operations, plural, for messages ("only 3 of 20 actor calls ran").
    public var units: String {
        switch self {
        case .actorCall, .actorContended: "actor calls"
        case .taskGroupChild: "task group children"
        case .asyncLet: "async let children"
        case .task: "unstructured tasks"
        case .yield: "yields"
        case .continuation: "continuation resumes"
        case .stream: "stream elements"
        }
    }
}

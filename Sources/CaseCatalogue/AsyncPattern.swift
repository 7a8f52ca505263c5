/// swift-async's `pattern`: which piece of Swift concurrency one operation is, run on the backend's
/// executors (`makeTaskExecutor`, `makeSerialExecutor`; Swift's own on swift-concurrency).
public enum AsyncPattern: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One call to an actor, uncontended, from a task: the hop onto its serial executor and back.
    case actorCall = "actor-call"
    /// One child of a task group, added and awaited: fan-out and fan-in per child.
    case taskGroupChild = "task-group-child"
    /// One unstructured task, created and its value awaited.
    case task

    public var description: String { rawValue }
}

/// direct's `operation`: which suite operation is written directly against the runtime. Each has
/// its suite case (`FidelityPairs`), chosen by an exhaustive switch over these.
public enum DirectOperation: String, Sendable, CaseIterable {
    /// queue-vs-lock, guard=pthread-mutex, one thread: lock, ++counter, unlock.
    case pthreadMutex = "pthread-mutex"
    /// queue-vs-lock, guard=swift-mutex, one thread: `Mutex.withLock`.
    case swiftMutex = "swift-mutex"
    /// semaphore, pattern=uncontended, semaphore=posix: `sem_wait` + `sem_post`.
    case posixSemaphore = "posix-semaphore"
    /// queue-vs-lock, guard=queue-sync, one thread: a sync block on a serial queue.
    case sync
    /// queue-vs-lock, guard=queue-async, one thread: async blocks to a serial queue, drained.
    case asyncDrain = "async-drain"
    /// spawn, pattern=chain: each block submits the next.
    case chain
    /// spawn, pattern=outside: empty tasks submitted from the measuring thread.
    case outside
    /// group, pattern=fan-out: rounds of 2 × workers tasks in a group, then a wait.
    case groupFanOut = "group-fan-out"
    /// thread-spawn: pthread_create + pthread_join of a thread that only counts itself.
    case threadSpawn = "pthread-create-join"
    /// group, pattern=enter-leave.
    case groupEnterLeave = "group-enter-leave"
    /// semaphore, pattern=uncontended, semaphore=backend: wait + signal on a value-1 semaphore.
    case semaphore
    /// apply-stride: one loop, each piece looping over its stride with the body inlined.
    case apply
    /// swift-async, pattern=actor-call: `await actor.call()` in a loop, on the backend's executors.
    case actorCall = "actor-call"
    /// swift-async, pattern=task-group-child, body=0ns: a task group's empty children, added then awaited.
    case taskGroupChild = "task-group-child"
    /// swift-async, pattern=task: `Task { 1 }.value`, with the backend's executor preference.
    case task

    /// The operations written as plain Swift on the backend's executors (`AsyncDirectOperation`).
    public var isAsync: Bool { [.actorCall, .taskGroupChild, .task].contains(self) }

    /// The operations that need no backend: they call a primitive of the C library or the
    /// standard library, under backend "none".
    public var needsBackend: Bool { ![.pthreadMutex, .swiftMutex, .posixSemaphore, .threadSpawn].contains(self) }
}

/// queue-vs-lock's `guard`: what makes the critical sections exclusive.
public enum QueueVsLockGuard: String, Sendable, CaseIterable {
    case pthreadMutex = "pthread-mutex"
    case swiftMutex = "swift-mutex"
    case spinLock = "spin-lock"
    case actor
    case semaphore
    case queueSync = "queue-sync"
    case queueAsync = "queue-async"

    /// The guards that come from a backend; the others run once, under "none".
    public var fromBackend: Bool { [.semaphore, .queueSync, .queueAsync].contains(self) }
}

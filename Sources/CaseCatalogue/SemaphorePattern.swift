/// semaphore's `pattern`: who waits and who signals.
public enum SemaphorePattern: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Wait + signal on a semaphore of 1 by one thread: never blocks.
    case uncontended
    /// Two threads hand a token back and forth: every wait blocks.
    case pingpong
    case pingpongOversubscribed = "pingpong-oversubscribed"
    case pool
    case producerConsumer = "producer-consumer"

    public var description: String { rawValue }
}

/// semaphore's `semaphore`: whose semaphore is measured.
public enum SemaphoreKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The backend's own.
    case backend
    case posix
    case mutexCondition = "mutex-condition"

    public var description: String { rawValue }
}

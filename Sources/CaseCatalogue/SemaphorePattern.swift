/// semaphore's `pattern`: who waits and who signals.
public enum SemaphorePattern: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Wait + signal on a semaphore of 1 by one thread: never blocks.
    case uncontended
    /// Two threads hand a token back and forth: every wait blocks. The kernel places them.
    case pingpong
    /// The same two threads pinned to one CPU: each hand-off is a switch on that CPU, never a
    /// wake-up of another. One of the two modes `pingpong` falls into, made a setting.
    case pingpongOneCPU = "pingpong-one-cpu"
    /// The same two threads pinned to two CPUs, one each: each hand-off crosses between CPUs.
    /// The other mode.
    case pingpongTwoCPUs = "pingpong-two-cpus"
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

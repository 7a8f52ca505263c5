/// spawn's `pattern`: how tasks are submitted.
public enum SpawnPattern: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Empty tasks submitted from the measuring thread, outside the pool.
    case outside
    /// Each task submits the next.
    case chain
    case queuePingPong = "queue-pingpong"
    case queueRing = "queue-ring"

    public var description: String { rawValue }
}

/// group's `pattern`.
public enum GroupPattern: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Rounds of 2 × workers tasks in a group, then a wait.
    case fanOut = "fan-out"
    case fanOutOversubscribed = "fan-out-oversubscribed"
    case notify
    case enterLeave = "enter-leave"

    public var description: String { rawValue }
}

/// The priority bands of the global concurrent queues (man dispatch_queue_create: "global queues
/// with lower priority will be scheduled for execution after all global queues with higher
/// priority have been scheduled"). A queue's band is inherited from its target unless it has a
/// quality of service of its own; a submission's quality of service raises the queue's band while
/// that submission waits.
public enum Priority: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case background = 0
    case low = 1
    case `default` = 2
    case high = 3

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .background: "background"
        case .low: "low"
        case .default: "default"
        case .high: "high"
        }
    }
}

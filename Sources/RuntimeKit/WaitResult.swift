/// The outcome of a wait with a timeout (`dispatch_semaphore_wait`, `dispatch_group_wait`).
public enum WaitResult: Sendable, Equatable, CustomStringConvertible {
    case success
    case timedOut

    public var description: String {
        switch self {
        case .success: "success"
        case .timedOut: "timed out"
        }
    }
}

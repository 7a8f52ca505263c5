import RuntimeKit
import Synchronization

/// The guide's cancelable group (swift-dispatchgroup-timeouts-and-qos.txt): a group whose `wait`
/// wakes every `period` to check for cancellation, so the waiter leaves within one period of
/// `cancel()`. Blocks still run after a cancel (a queue runs everything given to it); they ask
/// `isCanceled` and return early.
public final class CancelableGroup: @unchecked Sendable {
    public enum Outcome: Sendable, Equatable { case completed, canceled }

    public let group: FIFOGroup
    public let period: Duration
    private let canceled = Atomic<Bool>(false)

    public init(group: FIFOGroup, period: Duration = .seconds(1)) {
        precondition(period > .zero, "a cancelable group's waiting period must be positive, got \(period)")
        self.group = group
        self.period = period
    }

    public var isCanceled: Bool { canceled.load(ordering: .acquiring) }

    public func cancel() { canceled.store(true, ordering: .releasing) }

    /// Waits in slices of `period` until the group is empty (`.completed`) or canceled.
    public func wait() -> Outcome {
        while group.wait(timeout: period) == .timedOut {
            if isCanceled { return .canceled }
        }
        return .completed
    }
}

extension FIFOQueue {
    /// Submits `work` as a member of `cancelable`'s group, passing the group so `work` can ask
    /// whether it was canceled.
    public func async(cancelable: CancelableGroup, _ work: @escaping @Sendable (CancelableGroup) -> Void) {
        async(group: cancelable.group) { work(cancelable) }
    }
}

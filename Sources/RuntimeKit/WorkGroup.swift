/// A set of blocks monitored for completion, with the semantics of `dispatch_group_t`
/// (shared/seeds/man-dispatch_group.txt): a count of unfinished members that `enter` raises and
/// `leave` lowers. `wait` returns as soon as the count is zero; a block of the group that adds
/// work to its own group keeps it non-zero, so waiters do not wake early.
public protocol WorkGroup: Sendable {
    associatedtype NotifyQueue: SerialQueue
    func enter()
    /// - Precondition: balanced with an earlier `enter`.
    func leave()
    func wait()
    func wait(timeout: Duration) -> WaitResult
    /// Submits `work` to `queue` once the group is empty (at once if it already is). The group
    /// can be reused afterwards.
    func notify(on queue: NotifyQueue, _ work: @escaping @Sendable () -> Void)
}

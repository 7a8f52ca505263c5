import CFIFODispatch
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// A dispatch group: a count of unfinished members that `enter` raises and `leave` lowers, each
/// one atomic add. Reaching zero advances `generation` (the futex word waiters sleep on), wakes
/// sleeping waiters and submits the pending notifications; both are skipped with one load each
/// when nobody waits and nothing is pending.
///
/// `wait` returns as soon as the count is zero, or once it has been zero since the wait began
/// (the generation moved): a waiter never misses a zero that was followed at once by a new
/// `enter`, and a block that adds work to its own group keeps the count above zero, so waiters do
/// not wake early (man dispatch_group).
public final class FIFOGroup: WorkGroup, @unchecked Sendable {
    public typealias NotifyQueue = FIFOQueue

    @usableFromInline let count = Atomic<Int>(0)
    private let generation = Futex(0)
    private let sleepers = Atomic<Int>(0)
    private let notificationsPending = Atomic<Bool>(false)
    private let notificationsLock = PThreadMutex()
    private var notifications: [(FIFOQueue, @Sendable () -> Void)] = []
    private let pool: Unmanaged<WorkerPool>?

    static let spinRounds = 1_000

    init(pool: WorkerPool?) {
        self.pool = pool.map { Unmanaged.passUnretained($0) }
    }

    @inlinable
    public func enter() {
        count.add(1, ordering: .relaxed)
    }

    /// - Precondition: balanced with an earlier `enter`.
    @inlinable
    public func leave() {
        // acquiringAndReleasing: the member's writes happen before whatever a waiter or a
        // notification does after seeing zero.
        let after = count.subtract(1, ordering: .acquiringAndReleasing).newValue
        if after <= 0 { becameEmpty(after) }
    }

    @usableFromInline
    func becameEmpty(_ after: Int) {
        precondition(after == 0, "unbalanced leave on a group: leave() called more often than enter()")
        generation.atomic.pointee.add(1, ordering: .sequentiallyConsistent)
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 { generation.wakeAll() }
        if notificationsPending.load(ordering: .sequentiallyConsistent) { runNotifications() }
    }

    public func wait() {
        _ = wait(until: .never)
    }

    public func wait(timeout: Duration) -> WaitResult {
        wait(until: .after(timeout))
    }

    /// Waits until the group is empty or `deadline` (monotonic, or wall clock as `dispatch_walltime`).
    public func wait(until deadline: Deadline) -> WaitResult {
        let seen = generation.atomic.pointee.load(ordering: .sequentiallyConsistent)
        if count.load(ordering: .acquiring) == 0 { return .success }
        for _ in 0..<Self.spinRounds {
            if generation.atomic.pointee.load(ordering: .acquiring) != seen || count.load(ordering: .acquiring) == 0 {
                return .success
            }
            rb_fifo_pause()
        }
        let blocking = pool?.takeUnretainedValue().willBlock() ?? false
        defer { if blocking { pool?.takeUnretainedValue().didUnblock() } }
        while true {
            sleepers.add(1, ordering: .sequentiallyConsistent)
            let empty = count.load(ordering: .sequentiallyConsistent) == 0
            let timedOut = !empty && !generation.wait(expected: seen, until: deadline)
            sleepers.subtract(1, ordering: .sequentiallyConsistent)
            if empty || generation.atomic.pointee.load(ordering: .acquiring) != seen { return .success }
            if timedOut { return .timedOut }
        }
    }

    /// Submits `work` to `queue` once the group is empty (at once if it is now).
    public func notify(on queue: FIFOQueue, _ work: @escaping @Sendable () -> Void) {
        notificationsLock.lock()
        notifications.append((queue, work))
        notificationsPending.store(true, ordering: .sequentiallyConsistent)
        notificationsLock.unlock()
        // Sequentially consistent with `becameEmpty`: either it sees the flag, or this sees zero.
        if count.load(ordering: .sequentiallyConsistent) == 0 { runNotifications() }
    }

    private func runNotifications() {
        notificationsLock.lock()
        let due = notifications
        notifications.removeAll()
        notificationsPending.store(false, ordering: .relaxed)
        notificationsLock.unlock()
        for (queue, work) in due { queue.async(work) }
    }
}

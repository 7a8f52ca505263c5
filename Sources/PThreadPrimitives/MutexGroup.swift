import RuntimeKit

/// A dispatch group on a pthread mutex and condition variable.
///
/// Every time the count returns to zero the `generation` advances; a waiter waits for the
/// generation it saw to end, not for "count == 0" at the moment it wakes. That gives the man
/// page's semantics exactly: `wait` returns as soon as the count reaches zero, even if another
/// thread enters right after, and a member that enters before it leaves keeps the count above
/// zero, so nobody wakes early.
public final class MutexGroup<NotifyQueue: SerialQueue>: WorkGroup, @unchecked Sendable {
    private let mutex = PThreadMutex()
    private let emptied = PThreadCondition()
    private var count = 0
    private var generation: UInt64 = 0
    private var waiters = 0
    private var notifications: [(queue: NotifyQueue, work: @Sendable () -> Void)] = []
    /// `!notifications.isEmpty`, kept apart so `enter` and `leave` never touch the array: callers
    /// reach them through the `WorkGroup` witness, unspecialized, and there every use of the
    /// array of a generic element looks up its metadata, which costs many times the count's own
    /// work (README.md, "MutexGroup").
    private var notificationsPending = false

    public init() {}

    public func enter() {
        mutex.lock()
        count += 1
        mutex.unlock()
    }

    public func leave() {
        mutex.lock()
        precondition(count > 0, "WorkGroup.leave() without a matching enter()")
        count -= 1
        guard count == 0 else {
            mutex.unlock()
            return
        }
        generation &+= 1
        // The broadcast comes after the unlock: woken inside the critical section, a waiter would
        // find the mutex still held and go back to sleep on it (README.md, "MutexGroup"). A
        // waiter counted in `waiters` is already inside its condition wait, which it entered
        // holding the mutex, so a later broadcast still reaches it; the caller's reference keeps
        // the group alive for it.
        let wake = waiters > 0
        guard notificationsPending else {
            mutex.unlock()
            if wake { emptied.broadcast() }
            return
        }
        submitNotificationsAndUnlock()
        if wake { emptied.broadcast() }
    }

    /// Out of line: an unspecialized function materializes the metadata of every generic type it
    /// uses on entry, and this one uses the array of notifications.
    @inline(never)
    private func submitNotificationsAndUnlock() {
        let due = notifications
        notifications = []
        notificationsPending = false
        mutex.unlock()
        for notification in due { notification.queue.async(notification.work) }
    }

    public func wait() {
        mutex.lock()
        defer { mutex.unlock() }
        guard count > 0 else { return }
        let seen = generation
        waiters += 1
        while generation == seen { emptied.wait(mutex) }
        waiters -= 1
    }

    public func wait(timeout: Duration) -> WaitResult {
        guard let seen = pendingGeneration() else { return .success }
        return wait(untilEmptiedSince: seen, timeout: timeout)
    }

    /// The generation in progress, or nil when the group is empty now.
    private func pendingGeneration() -> UInt64? {
        mutex.withLock { count > 0 ? generation : nil }
    }

    /// `wait(timeout:)` for a generation read earlier with `pendingGeneration()`.
    private func wait(untilEmptiedSince seen: UInt64, timeout: Duration) -> WaitResult {
        let deadline = MonotonicInstant.after(timeout)
        mutex.lock()
        defer { mutex.unlock() }
        waiters += 1
        defer { waiters -= 1 }
        while generation == seen {
            if !emptied.wait(mutex, until: deadline) {
                return generation == seen ? .timedOut : .success
            }
        }
        return .success
    }

    public func notify(on queue: NotifyQueue, _ work: @escaping @Sendable () -> Void) {
        mutex.lock()
        if count == 0 {
            mutex.unlock()
            queue.async(work)
        } else {
            notifications.append((queue, work))
            notificationsPending = true
            mutex.unlock()
        }
    }
}

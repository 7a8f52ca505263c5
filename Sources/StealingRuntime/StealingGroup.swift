import PThreadPrimitives
import RuntimeKit
import Synchronization

/// The work-stealing backend's group: `MutexGroup`'s semantics (PThreadPrimitives), with its
/// count in an atomic word, and a worker that waits helps.
///
/// **The count.** `enter` and `leave` are one atomic read-modify-write each; the mutex is taken
/// only by a leave that empties the group while someone waits or a notification is registered,
/// and by those waiters and notifiers. On `MutexGroup`, every enter and leave takes the mutex, and
/// two workers entering and leaving one group (a fork-join by group, fib(20) with a task per call)
/// meet there, sleeping and waking on the mutex's futex. The word (`GroupWord`) holds the count
/// and the generation: the leave that takes the count to zero advances the generation in the same
/// compare-and-exchange, so a waiter that starts after a new member entered never mistakes the old
/// emptying for its own (README.md, "Group"). A group with blocks among its members keeps itself
/// alive until it empties (`GroupWord`), so a submitted block holds no reference to it.
///
/// **Helping.** `wait()` on a worker runs the jobs of its own deque until the group has emptied,
/// so a block that waits for the work it just spawned runs that work itself instead of blocking a
/// worker of a fixed pool, the deadlock a plain blocking wait invites. It does not steal: a job
/// taken from the injector or another deque can be anything, such as a `sync` onto the serial
/// queue this very wait sits inside, which would then wait for its own thread forever (seen once
/// in five CI runs of "group wait inside sync, from every worker at once": a waiter whose member
/// had been stolen took the next crew block from the injector). Its own deque's jobs are safe:
/// thieves take from the top, the oldest, so by the time the waiter pops past its members they are
/// all gone. Only when there is nothing to help with does it block, and then only after waking a
/// sleeper for anything it left behind; the stall monitor covers a member stuck behind a blocked
/// thief. `wait(timeout:)` does not help: a helped job could run far past the deadline.
/// Off the pool, both simply block. Every wait that would block polls the group first, for as
/// long as its `SpinBudget` allows (`GroupWord.poll`): a fan-out round's last task usually ends
/// within a microsecond or two of the wait, far sooner than a sleep on the condition variable and
/// a wake-up through the kernel.
public final class StealingGroup: WorkGroup, @unchecked Sendable {
    public typealias NotifyQueue = Strand

    /// `GroupWord`'s layout: members, `held`, and the number of times the group has emptied.
    private let state = Atomic<UInt64>(0)
    /// Threads inside `block(untilEmptiedSince:)`: a leave that empties the group reads it to
    /// know whether to broadcast.
    private let waiters = Atomic<Int>(0)
    /// Whether `notifications` may hold anything: a leave that empties the group reads it to know
    /// whether to take the mutex.
    private let notificationsPending = Atomic<Bool>(false)
    private let mutex = PThreadMutex()
    private let emptied = PThreadCondition()
    /// Under `mutex`: work to submit when the group empties, each with the generation it waits
    /// for the end of.
    private var notifications: [(generation: UInt64, queue: Strand, work: @Sendable () -> Void)] = []
    private let spin = SpinBudget()
    private unowned let runtime: StealingRuntime

    init(runtime: StealingRuntime) { self.runtime = runtime }

    public func enter() {
        // relaxed: a member's writes reach a waiter through its leave (releasing) and the
        // waiter's acquiring look at the generation, not through the enter.
        let before = state.wrappingAdd(1, ordering: .relaxed).oldValue
        precondition(before & GroupWord.countMask != GroupWord.countMask, "WorkGroup.enter() past 2^31 - 1 members")
    }

    /// `enter` for a block submitted with the group (`async(group:)`), which holds no reference to
    /// it: the group holds itself for the round (`GroupWord`).
    func enterForBlock() {
        if GroupWord.enterForBlock(state) { _ = Unmanaged.passUnretained(self).retain() }
    }

    public func leave() {
        var current = state.load(ordering: .relaxed)
        while true {
            let count = current & GroupWord.countMask
            precondition(count > 0, "WorkGroup.leave() without a matching enter()")
            // The last member advances the generation in the same step that empties the group.
            let next = GroupWord.afterLeave(current)
            // sequentiallyConsistent: releases the member's writes to the waiters, and orders
            // this store before the reads of `waiters` and `notificationsPending` below
            // against their writers' store-then-read (README.md, "Group").
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: next, ordering: .sequentiallyConsistent)
            if exchanged {
                if count == 1 {
                    didEmpty(generation: current >> 32)
                    // The round's hold on the group (GroupWord), last: this may free it.
                    if current & GroupWord.held != 0 { Unmanaged.passUnretained(self).release() }
                }
                return
            }
            current = original
        }
    }

    /// After the leave that ended `generation`: wake the waiters and submit the notifications.
    private func didEmpty(generation: UInt64) {
        if waiters.load(ordering: .sequentiallyConsistent) > 0 {
            // Through the mutex: a waiter that saw the old generation holds it until it is inside
            // its condition wait, so the broadcast after this cannot miss it. After the unlock, so
            // that a woken waiter does not find the mutex still held.
            mutex.lock()
            mutex.unlock()
            emptied.broadcast()
        }
        guard notificationsPending.load(ordering: .sequentiallyConsistent) else { return }
        mutex.lock()
        var due: [(queue: Strand, work: @Sendable () -> Void)] = []
        notifications.removeAll { notification in
            guard notification.generation == generation else { return false }
            due.append((notification.queue, notification.work))
            return true
        }
        notificationsPending.store(!notifications.isEmpty, ordering: .relaxed)
        mutex.unlock()
        for notification in due { notification.queue.async(notification.work) }
    }

    /// The generation in progress, or nil when the group is empty now.
    func pendingGeneration() -> UInt64? {
        let current = state.load(ordering: .acquiring)
        return current & GroupWord.countMask == 0 ? nil : current >> 32
    }

    /// True once the group has been empty at some moment after `pendingGeneration()` returned
    /// `seen`. Acquiring: the members' writes, released by their leaves, are visible after it.
    func hasEmptied(since seen: UInt64) -> Bool {
        state.load(ordering: .acquiring) >> 32 != seen
    }

    public func wait() {
        guard let seen = pendingGeneration() else { return }
        if let worker = CurrentWorker.of(runtime) {
            while !hasEmptied(since: seen) {
                guard let job = worker.deque.pop() else { break }
                job.run()
            }
        }
        if GroupWord.poll(spin, untilGenerationLeaves: seen, { state.load(ordering: .acquiring) }) { return }
        runtime.publishBeforeBlocking()
        _ = block(untilEmptiedSince: seen, deadline: nil)
    }

    /// A timeout of zero or less looks once (no poll, no word to the runtime about a block).
    public func wait(timeout: Duration) -> WaitResult {
        guard let seen = pendingGeneration() else { return .success }
        if timeout <= .zero { return hasEmptied(since: seen) ? .success : .timedOut }
        if GroupWord.poll(spin, untilGenerationLeaves: seen, { state.load(ordering: .acquiring) }) { return .success }
        runtime.publishBeforeBlocking()
        return block(untilEmptiedSince: seen, deadline: MonotonicInstant.after(timeout))
    }

    /// Sleeps on the condition until the generation moves past `seen`, or the deadline passes.
    private func block(untilEmptiedSince seen: UInt64, deadline: MonotonicInstant?) -> WaitResult {
        mutex.lock()
        defer { mutex.unlock() }
        // sequentiallyConsistent, then the look at the generation: against the leave's store of
        // the generation then read of `waiters`, one of the two sees the other.
        waiters.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { waiters.wrappingSubtract(1, ordering: .relaxed) }
        while state.load(ordering: .sequentiallyConsistent) >> 32 == seen {
            guard let deadline else {
                emptied.wait(mutex)
                continue
            }
            if !emptied.wait(mutex, until: deadline) {
                return state.load(ordering: .acquiring) >> 32 == seen ? .timedOut : .success
            }
        }
        return .success
    }

    public func notify(on queue: Strand, _ work: @escaping @Sendable () -> Void) {
        mutex.lock()
        // Announce, then look at the count: against the leave's store then read, either the
        // leave sees the announcement and submits this, or this sees the group empty.
        notificationsPending.store(true, ordering: .sequentiallyConsistent)
        let current = state.load(ordering: .sequentiallyConsistent)
        guard current & GroupWord.countMask == 0 else {
            notifications.append((current >> 32, queue, work))
            mutex.unlock()
            return
        }
        notificationsPending.store(!notifications.isEmpty, ordering: .relaxed)
        mutex.unlock()
        queue.async(work)
    }
}

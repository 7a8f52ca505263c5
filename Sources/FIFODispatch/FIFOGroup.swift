import PThreadPrimitives
import RuntimeKit
import Synchronization

/// A dispatch group: a count of unfinished members that `enter` raises and `leave` lowers, and a
/// generation that advances exactly when the count reaches zero, in one 64-bit word
/// (`GroupWord`, which also says how a group with blocks among its members keeps itself alive).
/// Waiters sleep on the generation (a futex on that half); sleeping waiters are woken and pending
/// notifications submitted only when someone is there, each skipped with one load otherwise.
///
/// Why one word: a waiter that reads "count 4, generation 7" and later sees generation 8 knows a
/// zero happened after it started waiting. With the generation in a separate word, the bump of an
/// earlier zero (its `leave` preempted between the two steps) could land after a new round's
/// `enter`s and release the new round's waiter early; the group workload caught exactly that.
/// A block that adds work to its own group keeps the count above zero, so waiters do not wake
/// early (man dispatch_group).
public final class FIFOGroup: WorkGroup, @unchecked Sendable {
    public typealias NotifyQueue = FIFOQueue

    /// `GroupWord`'s layout.
    @usableFromInline let word: UnsafeMutablePointer<Atomic<UInt64>>
    private let sleepers = Atomic<Int>(0)
    private let notificationsPending = Atomic<Bool>(false)
    private let notificationsLock = PThreadMutex()
    private var notifications: [(FIFOQueue, @Sendable () -> Void)] = []
    private let pool: Unmanaged<WorkerPool>

    /// How long a waiter polls for the group to empty before sleeping (`SpinBudget`).
    private let spin = SpinBudget()
    @inlinable static var countMask: UInt64 { GroupWord.countMask }

    init(pool: WorkerPool) {
        self.pool = Unmanaged.passUnretained(pool)
        word = .allocate(capacity: 1)
        word.initialize(to: Atomic(0))
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// Unfinished members now.
    var count: Int { Int(word.pointee.load(ordering: .relaxed) & Self.countMask) }

    /// The generation half, as the futex sees it (little-endian: the upper four bytes).
    private var generationAddress: UnsafeMutablePointer<UInt32> {
        #if _endian(little)
        (UnsafeMutableRawPointer(word) + 4).assumingMemoryBound(to: UInt32.self)
        #else
        UnsafeMutableRawPointer(word).assumingMemoryBound(to: UInt32.self)
        #endif
    }

    @inlinable
    public func enter() {
        word.pointee.wrappingAdd(1, ordering: .relaxed)
    }

    /// `enter` for a block submitted with the group (`async(group:)`), which holds no reference to
    /// it: the group holds itself for the round (`GroupWord`).
    func enterForBlock() {
        if GroupWord.enterForBlock(word.pointee) { _ = Unmanaged.passUnretained(self).retain() }
    }

    /// - Precondition: balanced with an earlier `enter`.
    @inlinable
    public func leave() {
        var s = word.pointee.load(ordering: .relaxed)
        while true {
            precondition(s & Self.countMask != 0, "unbalanced leave on a group: leave() called more often than enter()")
            // The last member's leave clears the count and advances the generation at once.
            let desired = GroupWord.afterLeave(s)
            // acquiringAndReleasing: the member's writes happen before whatever a waiter or a
            // notification does after seeing zero; sequentially consistent for the checks below.
            let (done, current) = word.pointee.compareExchange(
                expected: s, desired: desired, ordering: .sequentiallyConsistent)
            if done {
                if desired & Self.countMask == 0 {
                    becameEmpty()
                    // The round's hold on the group (GroupWord), last: this may free it.
                    if s & GroupWord.held != 0 { Unmanaged.passUnretained(self).release() }
                }
                return
            }
            s = current
        }
    }

    @usableFromInline
    func becameEmpty() {
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 { Futex.wake(on: generationAddress, Int32.max) }
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
        let start = word.pointee.load(ordering: .acquiring)
        if start & Self.countMask == 0 { return .success }
        let generation = UInt32(truncatingIfNeeded: start >> 32)
        func emptiedSinceStart() -> Bool {
            UInt32(truncatingIfNeeded: word.pointee.load(ordering: .sequentiallyConsistent) >> 32) != generation
        }
        // A zero timeout looks once, as libdispatch's does: no poll, and no word to the pool about
        // a block that will not happen.
        if deadline.isImmediate { return emptiedSinceStart() ? .success : .timedOut }
        let polled = GroupWord.poll(spin, untilGenerationLeaves: start >> 32) {
            word.pointee.load(ordering: .sequentiallyConsistent)
        }
        if polled { return .success }
        return pool._withUnsafeGuaranteedRef { pool in
            pool.whileBlocking {
                while true {
                    sleepers.add(1, ordering: .sequentiallyConsistent)
                    let emptied = emptiedSinceStart()
                    let timedOut = !emptied && !Futex.wait(on: generationAddress, expected: generation, until: deadline)
                    sleepers.subtract(1, ordering: .sequentiallyConsistent)
                    if emptied || emptiedSinceStart() { return .success }
                    if timedOut { return .timedOut }
                }
            }
        }
    }

    /// Submits `work` to `queue` once the group is empty (at once if it is now).
    public func notify(on queue: FIFOQueue, _ work: @escaping @Sendable () -> Void) {
        notificationsLock.lock()
        notifications.append((queue, work))
        notificationsPending.store(true, ordering: .sequentiallyConsistent)
        notificationsLock.unlock()
        // Sequentially consistent with `becameEmpty`: either it sees the flag, or this sees zero.
        if word.pointee.load(ordering: .sequentiallyConsistent) & Self.countMask == 0 { runNotifications() }
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

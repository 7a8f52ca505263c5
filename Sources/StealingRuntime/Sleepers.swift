import CFutex
import CSpinHint
import PThreadPrimitives
import Synchronization

/// Where idle workers sleep, how many search, and the protocol that loses no wake-up (README.md,
/// "Parking and searching (Sleepers)").
///
/// A worker about to sleep first announces itself (`sleeping += 1`), then looks at every queue
/// once more, and only then waits, for the epoch it read before looking to change. A submitter
/// from outside the pool publishes its job, then reads `sleeping`; if anyone sleeps it advances
/// the epoch and wakes one. Both sides do "write, full fence, read", so at least one of them sees
/// the other: either the worker's last look finds the job, or the submitter sees the sleeper and
/// its epoch bump keeps the sleeper from waiting (or wakes it).
///
/// The wait is a futex on the epoch word, which the kernel compares before it puts the worker to
/// sleep: a bump between the worker's look and its wait makes the wait return at once. Not a
/// condition variable: with a mutex around the epoch, a woken worker must take the mutex back from
/// the thread that signalled under it, a second futex call each side, and with more busy threads
/// than CPUs a submitter that lost the mutex slept on it (README.md, "Parking on the epoch").
@usableFromInline
final class Sleepers: @unchecked Sendable {
    /// `sleeping` is read on every surplus push and `searching` is written every time a worker
    /// starts or stops looking for work: on one cache line, each search would evict the line every
    /// pushing worker reads. They get a line each (`cacheLine` bytes apart, line-aligned).
    @usableFromInline let counters: UnsafeMutableRawPointer
    @inlinable var sleeping: UnsafeMutablePointer<Atomic<Int>> { counters.assumingMemoryBound(to: Atomic<Int>.self) }
    @inlinable var searching: UnsafeMutablePointer<Atomic<Int>> {
        (counters + Self.cacheLine).assumingMemoryBound(to: Atomic<Int>.self)
    }
    /// True from a wake-up until a worker comes back from `sleep` (or finds it set there and does
    /// not wait): a worker is on its way to look, so another wake-up would only wake a second
    /// worker for the same job (README.md, "A wake-up in flight"). Beside `sleeping`, which its
    /// readers read just before it.
    @inlinable var wakeInFlight: UnsafeMutablePointer<Atomic<Bool>> {
        (counters + Self.wakeInFlightOffset).assumingMemoryBound(to: Atomic<Bool>.self)
    }
    /// Advanced by every wake-up; sleepers wait (futex) for it to move. 32 bits, as a futex word
    /// is: a sleeper would miss its wake-up only if exactly 2^32 of them came between its read and
    /// its wait. On `sleeping`'s line: both change when a worker parks or is woken.
    private var epoch: UnsafeMutablePointer<Atomic<UInt32>> {
        (counters + Self.epochOffset).assumingMemoryBound(to: Atomic<UInt32>.self)
    }
    private var epochWord: UnsafeMutablePointer<UInt32> {
        (counters + Self.epochOffset).assumingMemoryBound(to: UInt32.self)
    }
    /// Workers inside the futex wait, or about to enter it: a wake-up makes the system call only
    /// when there is one, as glibc's condition variable did. A worker on its way to sleep is counted
    /// in `sleeping` long before it waits, and a join offers halves to it all the while.
    private var waiting: UnsafeMutablePointer<Atomic<Int>> {
        (counters + Self.waitingOffset).assumingMemoryBound(to: Atomic<Int>.self)
    }
    private let workers: Int

    /// Searchers allowed whatever the pool's size. Two: with one, a pool of two parked its second
    /// worker at once whenever the first searched, and every round of a fan-out from outside then
    /// paid a hand-off wake-up, a futex call before the searcher's job (README.md, "Parking and
    /// searching (Sleepers)"). From three workers up the half rule already allows two, so this
    /// changes only a pool of two.
    static let alwaysSearching = 2

    /// Bytes per cache line on x86-64 and most arm64 cores; a guess elsewhere costs only padding.
    @usableFromInline static let cacheLine = 64
    @usableFromInline static let wakeInFlightOffset = MemoryLayout<Atomic<Int>>.stride
    private static let epochOffset = 2 * MemoryLayout<Atomic<Int>>.stride
    private static let waitingOffset = 3 * MemoryLayout<Atomic<Int>>.stride

    init(workers: Int) {
        self.workers = workers
        counters = .allocate(byteCount: 2 * Self.cacheLine, alignment: Self.cacheLine)
        counters.initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        (counters + Self.wakeInFlightOffset).initializeMemory(as: Atomic<Bool>.self, to: Atomic(false))
        (counters + Self.epochOffset).initializeMemory(as: Atomic<UInt32>.self, to: Atomic(0))
        (counters + Self.waitingOffset).initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        (counters + Self.cacheLine).initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
    }

    deinit {
        sleeping.deinitialize(count: 1)
        wakeInFlight.deinitialize(count: 1)
        epoch.deinitialize(count: 1)
        waiting.deinitialize(count: 1)
        searching.deinitialize(count: 1)
        counters.deallocate()
    }

    /// Called by a submitter outside the pool (or a worker about to block) after it made a job
    /// visible. Wakes one sleeper if there is any and nobody is searching; costs one fence and a
    /// load or two when every worker is busy.
    ///
    /// A searcher counted here is bound to look again after this job became visible (README.md,
    /// "Who wakes whom"): it either finds it, or ends its search with a fenced look (parking's
    /// final check, or the last searcher's hand-off) that does. Waking a sleeper on top of that
    /// would cost a futex call per submission while a searcher keeps up, for nothing.
    func notifyOne() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        notifyIfIdle()
    }

    /// `notifyOne` for a job made visible by a sequentially consistent read-modify-write (the
    /// injector's push): that operation takes the fence's place, the three loads being
    /// sequentially consistent too. In the one total order of sequentially consistent operations,
    /// either the push comes before a sleeper's or searcher's fence, and every look after that
    /// fence sees the job, or the fence comes first, and these loads (after the push) see the
    /// count or flag written before it (README.md, "Who wakes whom"). On x86 the push is a locked
    /// exchange and the loads are plain loads: no `mfence` per job from outside the pool.
    ///
    /// `notifyIfIdle`'s conditions with other orderings, written twice: an atomic's ordering must
    /// be a constant at the call, so it cannot be a parameter, and sequentially consistent loads
    /// in `notifyIfIdle` would cost every join on arm64.
    @inlinable @inline(__always)
    func notifyOneAfterOrderedPush() {
        guard sleeping.pointee.load(ordering: .sequentiallyConsistent) > 0,
            searching.pointee.load(ordering: .sequentiallyConsistent) == 0,
            !wakeInFlight.pointee.load(ordering: .sequentiallyConsistent)
        else { return }
        wakeOne()
    }

    /// `notifyOne` for a job nobody needs for progress (an apply's helper: its caller can run every
    /// piece alone), when some worker is awake: waits up to `rounds` pauses for that worker to
    /// start searching, or for someone to take the job (`taken`), before waking a sleeper. A worker
    /// that has just finished a job is about to search, but is not counted as searching until it
    /// does; an apply called again at once often finds it there, and would wake the other worker
    /// for nothing (README.md, "Who wakes whom").
    ///
    /// Every load here follows the fence, so a searcher counted by any of them is bound to look
    /// again after the job became visible, as in `notifyOne`.
    func notifyOne(afterGrace rounds: Int, taken: () -> Bool) {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        for _ in 0..<rounds {
            let asleep = sleeping.pointee.load(ordering: .relaxed)
            if asleep == 0 || searching.pointee.load(ordering: .relaxed) > 0 || taken() { return }
            if asleep == workers { break }  // nobody awake to turn up: wake one now
            rb_spin_pause()
        }
        notifyIfIdle()
    }

    /// Called by a worker that pushed surplus work onto its own deque: no fence (README.md,
    /// "Searchers absorb wake-ups"). Wakes a sleeper only when nobody is searching already, since
    /// a searcher will find the job anyway; missing a sleeper that is just announcing itself costs
    /// parallelism, not progress, because the pushing worker is awake and runs its own deque.
    /// Inlined into every join: the two loads are all a busy pool pays, and a call cost more.
    @inlinable @inline(__always)
    func notifyIfIdle() {
        guard sleeping.pointee.load(ordering: .relaxed) > 0, searching.pointee.load(ordering: .relaxed) == 0,
            !wakeInFlight.pointee.load(ordering: .relaxed)
        else { return }
        wakeOne()
    }

    @usableFromInline @inline(never)
    func wakeOne() {
        RuntimeEvents.count(.wakeUps)
        // The flag before the bump, released by it: a worker that reads the new epoch sees the
        // flag. sequentiallyConsistent bump, then the read of `waiting`: against a sleeper's
        // count of itself, then its read of the epoch, one of the two sees the other, so a worker
        // that read the old epoch and waits is counted here, and woken.
        wakeInFlight.pointee.store(true, ordering: .relaxed)
        epoch.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if waiting.pointee.load(ordering: .sequentiallyConsistent) > 0 { _ = rb_futex_wake(epochWord, 1) }
    }

    /// Some worker sleeps or searches: work that waits will be taken without help.
    var hasIdleWorker: Bool {
        sleeping.pointee.load(ordering: .relaxed) > 0 || searching.pointee.load(ordering: .relaxed) > 0
    }

    var debugCounts: String {
        "sleeping \(sleeping.pointee.load(ordering: .relaxed)) searching \(searching.pointee.load(ordering: .relaxed))"
    }

    /// Wakes every sleeper (shutdown).
    func notifyAll() {
        epoch.pointee.wrappingAdd(1, ordering: .releasing)
        _ = rb_futex_wake(epochWord, Int32.max)
    }

    /// Becomes one of the searching workers if fewer than half of them search already, or fewer
    /// than `alwaysSearching` (and than the workers). A worker that may not search goes straight
    /// to the parking protocol, so an idle burst does not have every worker hammering the same
    /// deques.
    ///
    /// The fence after joining: a submitter that read the count before this searcher joined relies
    /// on the searcher's looks seeing its job (README.md, "Who wakes whom").
    func startSearching() -> Bool {
        var current = searching.pointee.load(ordering: .relaxed)
        while current < min(workers, Self.alwaysSearching) || 2 * current < workers {
            let (exchanged, original) = searching.pointee.compareExchange(
                expected: current, desired: current + 1, ordering: .sequentiallyConsistent)
            if exchanged {
                atomicMemoryFence(ordering: .sequentiallyConsistent)
                return true
            }
            current = original
        }
        return false
    }

    /// Stops searching. Returns true when the caller was the last searcher: if it stops because it
    /// found work, it must then hand off (`handOffIfWorkRemains`), since submitters skipped waking
    /// anyone while it searched.
    @discardableResult
    func stopSearching() -> Bool {
        searching.pointee.wrappingSubtract(1, ordering: .sequentiallyConsistent).oldValue == 1
    }

    /// The last searcher found work and is about to run it: fence, and if work is still visible
    /// and someone sleeps, wake one to take over the searching.
    func handOffIfWorkRemains(_ workVisible: () -> Bool) {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard sleeping.pointee.load(ordering: .relaxed) > 0, !wakeInFlight.pointee.load(ordering: .relaxed),
            workVisible()
        else { return }
        wakeOne()
    }

    /// Announces the caller as about to sleep and returns the epoch to wait on.
    ///
    /// acquiring: a submitter bumps the epoch after publishing its job (a sequentially consistent
    /// add, so releasing), and a worker that reads the bump here sees that job in its last look.
    func prepareToSleep() -> UInt32 {
        sleeping.pointee.wrappingAdd(1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return epoch.pointee.load(ordering: .acquiring)
    }

    /// Withdraws the announcement without sleeping (the last look found work).
    func cancelSleep() {
        sleeping.pointee.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Sleeps until the epoch moves past `seen` (it may already have) or a wake-up is in flight,
    /// then withdraws, taking the wake-up: the caller goes back to looking for work, after a fence
    /// (`startSearching`'s or `prepareToSleep`'s), so a submitter that skipped its wake-up because
    /// this one was in flight has its job seen (README.md, "A wake-up in flight").
    func sleep(ifEpochIs seen: UInt32) {
        if isQuiet(since: seen) {
            RuntimeEvents.count(.parks)
            repeat {
                // Counted, then a sequentially consistent look (wakeOne's other half). The kernel
                // waits only while the word still holds `seen`; a spurious return or a signal goes
                // round again.
                waiting.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
                if epoch.pointee.load(ordering: .sequentiallyConsistent) == seen {
                    _ = rb_futex_wait(epochWord, seen, -1, 0)
                }
                waiting.pointee.wrappingSubtract(1, ordering: .relaxed)
            } while isQuiet(since: seen)
        }
        wakeInFlight.pointee.store(false, ordering: .sequentiallyConsistent)
        sleeping.pointee.wrappingSubtract(1, ordering: .relaxed)
    }

    /// No wake-up since the epoch read `seen`, and none in flight. acquiring: as in `prepareToSleep`.
    private func isQuiet(since seen: UInt32) -> Bool {
        epoch.pointee.load(ordering: .acquiring) == seen && !wakeInFlight.pointee.load(ordering: .relaxed)
    }
}

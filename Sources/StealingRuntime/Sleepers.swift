import CSpinHint
import PThreadPrimitives
import Synchronization

/// Where idle workers sleep, how many search, and the protocol that loses no wake-up (README.md,
/// "Parking and searching (Sleepers)").
///
/// A worker about to sleep first announces itself (`sleeping += 1`), then looks at every queue
/// once more, and only then waits, for the epoch it read before looking to change. A submitter
/// from outside the pool publishes its job, then reads `sleeping`; if anyone sleeps it advances
/// the epoch under the mutex and signals one. Both sides do "write, full fence, read", so at least
/// one of them sees the other: either the worker's last look finds the job, or the submitter sees
/// the sleeper and its epoch bump keeps the sleeper from waiting (or wakes it).
@usableFromInline
final class Sleepers: @unchecked Sendable {
    private let mutex = PThreadMutex()
    private let wake = PThreadCondition()
    private var epoch: UInt64 = 0  // guarded by mutex
    /// `sleeping` is read on every surplus push and `searching` is written every time a worker
    /// starts or stops looking for work: on one cache line, each search would evict the line every
    /// pushing worker reads. They get a line each (`cacheLine` bytes apart, line-aligned).
    @usableFromInline let counters: UnsafeMutableRawPointer
    @inlinable var sleeping: UnsafeMutablePointer<Atomic<Int>> { counters.assumingMemoryBound(to: Atomic<Int>.self) }
    @inlinable var searching: UnsafeMutablePointer<Atomic<Int>> { (counters + Self.cacheLine).assumingMemoryBound(to: Atomic<Int>.self) }
    /// True from a wake-up until a worker comes back from `sleep` (or finds it set there and does
    /// not wait): a worker is on its way to look, so another wake-up would only make a second
    /// worker contend for the mutex the first needs to leave `wait` (README.md, "A wake-up in
    /// flight"). Beside `sleeping`, which its readers read just before it.
    @inlinable var wakeInFlight: UnsafeMutablePointer<Atomic<Bool>> { (counters + MemoryLayout<Atomic<Int>>.stride).assumingMemoryBound(to: Atomic<Bool>.self) }
    private let workers: Int

    /// Bytes per cache line on x86-64 and most arm64 cores; a guess elsewhere costs only padding.
    @usableFromInline static let cacheLine = 64

    init(workers: Int) {
        self.workers = workers
        counters = .allocate(byteCount: 2 * Self.cacheLine, alignment: Self.cacheLine)
        counters.initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        (counters + MemoryLayout<Atomic<Int>>.stride).initializeMemory(as: Atomic<Bool>.self, to: Atomic(false))
        (counters + Self.cacheLine).initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
    }

    deinit {
        sleeping.deinitialize(count: 1)
        wakeInFlight.deinitialize(count: 1)
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

    /// `notifyOne` for a job nobody needs for progress (an apply's helper: its caller can run every
    /// piece alone), when some worker is awake: waits up to `rounds` pauses for that worker to
    /// start searching, or for someone to take the job (`taken`), before waking a sleeper. A worker
    /// that has just finished a job is about to search, but is not counted as searching until it
    /// does; an apply called again at once found it there a quarter of the time and woke the other
    /// worker for nothing (README.md, "Who wakes whom").
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
              !wakeInFlight.pointee.load(ordering: .relaxed) else { return }
        wakeOne()
    }

    @usableFromInline @inline(never)
    func wakeOne() {
        RuntimeEvents.count(.wakeUps)
        mutex.lock()
        wakeInFlight.pointee.store(true, ordering: .relaxed)  // under the mutex: `sleep` reads it there
        epoch &+= 1
        wake.signal()
        mutex.unlock()
    }

    var debugCounts: String { "sleeping \(sleeping.pointee.load(ordering: .relaxed)) searching \(searching.pointee.load(ordering: .relaxed))" }

    /// Wakes every sleeper (shutdown).
    func notifyAll() {
        mutex.lock()
        epoch &+= 1
        wake.broadcast()
        mutex.unlock()
    }

    /// Becomes one of the searching workers if fewer than half of them search already (one may
    /// always search). A worker that may not search goes straight to the parking protocol, so an
    /// idle burst does not have every worker hammering the same deques.
    ///
    /// The fence after joining: a submitter that read the count before this searcher joined relies
    /// on the searcher's looks seeing its job (README.md, "Who wakes whom").
    func startSearching() -> Bool {
        var current = searching.pointee.load(ordering: .relaxed)
        while current == 0 || 2 * current < workers {
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
        guard sleeping.pointee.load(ordering: .relaxed) > 0, !wakeInFlight.pointee.load(ordering: .relaxed), workVisible() else { return }
        wakeOne()
    }

    /// Announces the caller as about to sleep and returns the epoch to wait on.
    func prepareToSleep() -> UInt64 {
        sleeping.pointee.wrappingAdd(1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return mutex.withLock { epoch }
    }

    /// Withdraws the announcement without sleeping (the last look found work).
    func cancelSleep() {
        sleeping.pointee.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Sleeps until the epoch moves past `seen` (it may already have) or a wake-up is in flight,
    /// then withdraws, taking the wake-up: the caller goes back to looking for work, after a fence
    /// (`startSearching`'s or `prepareToSleep`'s), so a submitter that skipped its wake-up because
    /// this one was in flight has its job seen (README.md, "A wake-up in flight").
    func sleep(ifEpochIs seen: UInt64) {
        mutex.lock()
        if epoch == seen, !wakeInFlight.pointee.load(ordering: .relaxed) {
            RuntimeEvents.count(.parks)
            repeat { wake.wait(mutex) } while epoch == seen && !wakeInFlight.pointee.load(ordering: .relaxed)
        }
        wakeInFlight.pointee.store(false, ordering: .sequentiallyConsistent)
        mutex.unlock()
        sleeping.pointee.wrappingSubtract(1, ordering: .relaxed)
    }
}

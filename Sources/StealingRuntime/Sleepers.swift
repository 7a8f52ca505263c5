import PThreadPrimitives
import Synchronization

/// Where idle workers sleep, and the protocol that loses no wake-up (README.md, "Parking").
///
/// A worker about to sleep first announces itself (`sleeping += 1`), then looks at every queue
/// once more, and only then waits, for the epoch it read before looking to change. A submitter
/// publishes its job, then reads `sleeping`; if anyone sleeps it advances the epoch under the
/// mutex and signals one. Both sides do "write, full fence, read", so at least one of them sees
/// the other: either the worker's last look finds the job, or the submitter sees the sleeper and
/// its epoch bump keeps the sleeper from waiting (or wakes it).
final class Sleepers: @unchecked Sendable {
    private let mutex = PThreadMutex()
    private let wake = PThreadCondition()
    private var epoch: UInt64 = 0  // guarded by mutex
    private let sleeping = Atomic<Int>(0)

    /// Called by a submitter after it made a job visible. Wakes one sleeper if there is any; costs
    /// one fence and one load when every worker is busy.
    func notifyOne() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard sleeping.load(ordering: .relaxed) > 0 else { return }
        mutex.lock()
        epoch &+= 1
        wake.signal()
        mutex.unlock()
    }

    /// Wakes every sleeper (shutdown).
    func notifyAll() {
        mutex.lock()
        epoch &+= 1
        wake.broadcast()
        mutex.unlock()
    }

    /// Announces the caller as about to sleep and returns the epoch to wait on.
    func prepareToSleep() -> UInt64 {
        sleeping.add(1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return mutex.withLock { epoch }
    }

    /// Withdraws the announcement without sleeping (the last look found work).
    func cancelSleep() {
        sleeping.subtract(1, ordering: .relaxed)
    }

    /// Sleeps until the epoch moves past `seen` (it may already have), then withdraws.
    func sleep(ifEpochIs seen: UInt64) {
        mutex.lock()
        while epoch == seen { wake.wait(mutex) }
        mutex.unlock()
        sleeping.subtract(1, ordering: .relaxed)
    }
}

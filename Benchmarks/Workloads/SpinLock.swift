import CBodyCost
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A test-and-test-and-set spin lock with exponential backoff: queue-vs-lock's lock that never
/// enters the kernel while the holder runs. Waiters read the word (shared in their caches) and
/// only try the compare-exchange when it looks free, so a release does not set off a storm of
/// failed writes; each failure doubles the pause before the next look.
///
/// With more threads than CPUs a waiter can spin while the holder is descheduled; after the
/// backoff reaches its cap a waiter yields its CPU once per look (`sched_yield`), which is a
/// system call: queue-vs-lock's `syscalls` column shows when that happens.
final class SpinLock: Sendable {
    private let locked = Atomic<Bool>(false)

    /// Pauses before the first retry, doubled per failure up to `maximumPauses`: a few hundred
    /// nanoseconds at the cap, about one short critical section.
    static let maximumPauses = 64

    func lock() {
        var pauses = 1
        while true {
            // acquiring: the holder's writes to what the lock guards happen before ours. The
            // failure and the plain load are relaxed: they only decide whether to try again.
            if !locked.load(ordering: .relaxed),
                locked.compareExchange(
                    expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
            if pauses < Self.maximumPauses {
                for _ in 0..<pauses { rb_cpu_relax() }
                pauses *= 2
            } else {
                sched_yield()
            }
        }
    }

    func unlock() {
        // releasing: publishes the critical section's writes to the next holder.
        locked.store(false, ordering: .releasing)
    }
}

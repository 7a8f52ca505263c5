#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Whether a semaphore is in use as a lock or for a hand-off, as its waits out of the count see
/// it: how often such a wait should look for a free permit (`Atomic.pollOutOfCount`).
///
/// A lock has more than one thread taking it, each in turn; a hand-off (ping-pong, a producer and
/// a consumer) has one thread waiting, for a signal from a thread that never waits on it. Out of
/// the count, a waiter that looks every round pulls the count's line from the holder's CPU and
/// catches the permit between two of the holder's sections, so a lock changes CPUs every few
/// sections and each pays the line's trip; looking every `SpinBudget.pausesBetweenLooks` rounds,
/// as a contended `sync` does, lets the holder keep it. A hand-off's permit comes from another
/// thread's signal, and a look every 16 rounds only sees it later: ping-pong took 2.5× as long a
/// hop (README.md, "TokenSemaphore"). So a wait looks every round unless the last thread to wait
/// out of the count before it was another thread.
///
/// A hint, not a protocol: one relaxed word, written only when the waiter changes. A race between
/// two waiters loses one of the writes, and the next wait corrects it; either answer only spaces
/// the looks of one poll, which counts itself in and waits for its token as before.
public struct LockOrHandOff: ~Copyable, @unchecked Sendable {
    /// The thread (`pthread_self`) that last waited out of the count; 0 before any.
    private let lastWaiter = Atomic<UInt>(0)

    public init() {}

    /// For a wait about to poll out of the count: notes this thread as the last waiter, and gives
    /// the rounds between two looks, `SpinBudget.pausesBetweenLooks` when another thread waited
    /// last (a lock), 1 otherwise (a hand-off).
    public func roundsPerLook() -> Int {
        let me = UInt(pthread_self())
        guard lastWaiter.load(ordering: .relaxed) != me else { return 1 }
        lastWaiter.store(me, ordering: .relaxed)
        return SpinBudget.pausesBetweenLooks
    }
}

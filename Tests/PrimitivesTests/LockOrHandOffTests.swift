import PThreadPrimitives
import Testing

@Suite("LockOrHandOff: a semaphore's waits out of the count look spaced when another thread waited last")
struct LockOrHandOffTests {
    final class Shared: Sendable {
        let use = LockOrHandOff()
    }

    /// Calls `roundsPerLook` on a new thread, and waits for it (the join orders its write before
    /// the read).
    private func fromAnotherThread(_ shared: Shared) -> Int {
        final class Outcome: @unchecked Sendable { var rounds = 0 }
        let outcome = Outcome()
        let thread = PThread.spawn { outcome.rounds = shared.use.roundsPerLook() }
        thread.join()
        return outcome.rounds
    }

    @Test("one thread waiting again and again is a hand-off; a wait after another thread's is a lock's")
    func answers() {
        let shared = Shared()
        let spaced = SpinBudget.pausesBetweenLooks
        #expect(shared.use.roundsPerLook() == spaced, "the first wait has nobody before it: spaced")
        #expect(shared.use.roundsPerLook() == 1, "the same thread again: a hand-off")
        #expect(shared.use.roundsPerLook() == 1)
        #expect(fromAnotherThread(shared) == spaced, "another thread after this one: a lock")
        #expect(shared.use.roundsPerLook() == spaced, "and this one after it")
        #expect(shared.use.roundsPerLook() == 1)
    }
}

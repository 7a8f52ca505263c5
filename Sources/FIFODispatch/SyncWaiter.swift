import Synchronization

/// A thread blocked in `sync` on a busy queue. Its node waits in the queue's list like a block;
/// the drainer that reaches it hands over everything it holds (the queue's lock, and the locks or
/// width units of the queues above it) and goes back to other work. The waiter runs its block on
/// its own thread, then releases what it was handed, innermost first, which schedules whatever
/// arrived behind it.
@usableFromInline
final class SyncWaiter: @unchecked Sendable {
    /// 0 while waiting, 1 once `holds` is written.
    private let turn = Futex(0)
    /// Innermost first; each queue retained. Written by the drainer before it sets `turn`.
    private(set) var holds: [(queue: Unmanaged<FIFOQueue>, hold: DrainFrame.Hold)] = []

    /// Rounds of polling before sleeping: a hand-off from a drainer on another core often comes
    /// within a few microseconds, and a futex round trip costs more than that.
    static let spinRounds = 2_000

    @usableFromInline init() {}

    /// Called by the drainer that reached this waiter's node.
    func handOff(holding frame: UnsafeMutablePointer<DrainFrame>?) {
        var next = frame
        while let current = next {
            holds.append((current.pointee.queue.retain(), current.pointee.hold))
            next = current.pointee.parent
        }
        // releasing: `holds` (and every write of the blocks before this one) is visible to the
        // waiter that reads 1 with acquire.
        turn.word.pointee.store(1, ordering: .releasing)
        turn.wake()
    }

    /// Blocks until `handOff`.
    @usableFromInline
    func waitForTurn() {
        for _ in 0..<Self.spinRounds where turn.word.pointee.load(ordering: .acquiring) == 1 { return }
        while turn.word.pointee.load(ordering: .acquiring) == 0 {
            _ = turn.wait(expected: 0)
        }
    }
}

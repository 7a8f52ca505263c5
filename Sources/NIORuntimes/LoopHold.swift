import CFutex
import PThreadPrimitives
import Synchronization

/// What a `sync` on an event-loop queue needs, since the loop is the queue: the loop itself held
/// while the caller runs its block on its own thread. The caller queues `grantAndWaitForRelease`
/// on the loop (FIFO: behind every block submitted before it), waits until the loop reaches it,
/// runs its block, then lets the loop go on. The loop thread waits meanwhile, which NIO otherwise
/// forbids: here it is what "the queue held" means (README.md, "sync").
///
/// One 32-bit word in the object's own storage, so a `sync` allocates this one object (the
/// closure that carries it to the loop captures only it, so it needs no context of its own). Each
/// side polls the word first (`SpinBudget`, kept per loop): a short block ends while the loop
/// polls, and a loop woken by `execute` grants while the caller polls, so neither sleeps in the
/// kernel. A side that does sleep sets `sleeping` first, and only then does the other side's
/// change of stage make a futex wake call (README.md, "sync", has the races).
@usableFromInline
final class LoopHold: ManagedBuffer<LoopLane, UInt32> {
    /// The stages of one hold, in order; each is set by one side and awaited by the other.
    private static let queued: UInt32 = 0, granted: UInt32 = 1, released: UInt32 = 2
    /// Added to the current stage by a side about to sleep until the stage changes.
    private static let sleeping: UInt32 = 0x100

    /// A new hold on `lane`'s loop, queued. The lane is the header: the loop side polls with its
    /// budget, and the closure that carries the hold to the loop still captures the hold alone.
    static func make(on lane: LoopLane) -> LoopHold {
        let hold = unsafeDowncast(create(minimumCapacity: 1) { _ in lane }, to: LoopHold.self)
        hold.withUnsafeMutablePointerToElements { word in
            UnsafeMutableRawPointer(word).bindMemory(to: Atomic<UInt32>.self, capacity: 1).initialize(
                to: Atomic(queued))
        }
        return hold
    }

    /// On the loop: tells the caller the loop is its, and waits until the caller lets it go.
    func grantAndWaitForRelease() {
        advance(to: Self.granted)
        wait(for: Self.released, polling: header.releasePolls)
    }

    /// On the caller: waits until the loop has run every block queued ahead of the hold.
    func waitUntilGranted() { wait(for: Self.granted, polling: header.grantPolls) }

    /// On the caller, after its block: the loop runs its next block.
    @usableFromInline
    func release() { advance(to: Self.released) }

    /// The word, which lives as long as the hold and never moves (the object's tail storage).
    private func withWord<T>(_ body: (UnsafeMutablePointer<Atomic<UInt32>>) -> T) -> T {
        withUnsafeMutablePointerToElements { word in
            body(UnsafeMutableRawPointer(word).assumingMemoryBound(to: Atomic<UInt32>.self))
        }
    }

    /// Releasing: what this side did before (the blocks ahead of the hold, or the caller's own
    /// block) is visible to the side that acquires the new stage.
    private func advance(to stage: UInt32) {
        withWord { word in
            let before = word.pointee.exchange(stage, ordering: .releasing)
            if before & Self.sleeping != 0 {
                _ = rb_futex_wake(UnsafeMutableRawPointer(word).assumingMemoryBound(to: UInt32.self), 1)
            }
        }
    }

    private func wait(for stage: UInt32, polling budget: borrowing SpinBudget) {
        withWord { word in
            // acquiring: pairs with `advance`'s release.
            // The other side may have announced its own sleep on the new stage already: the flag
            // is not part of the stage.
            if budget.poll(until: { word.pointee.load(ordering: .acquiring) & ~Self.sleeping == stage }) { return }
            let address = UnsafeMutableRawPointer(word).assumingMemoryBound(to: UInt32.self)
            while true {
                let now = word.pointee.load(ordering: .acquiring)
                if now & ~Self.sleeping == stage { return }
                // Announce the sleep on the stage seen; if the other side moved on meanwhile the
                // exchange fails and the loop looks again. Once announced, its `advance` sees the
                // flag and wakes us, and a wake before our futex call finds the word changed.
                if now & Self.sleeping == 0 {
                    guard
                        word.pointee.compareExchange(
                            expected: now, desired: now | Self.sleeping, ordering: .acquiring
                        ).exchanged
                    else { continue }
                }
                _ = rb_futex_wait(address, now | Self.sleeping, -1, 0)
            }
        }
    }
}

import CThreadInfo
#if canImport(Glibc)
import Glibc
#endif
import RuntimeKit
import Synchronization

/// The thread that last signalled a waiter of one semaphore, and the CPU it ran on then: a hint
/// for the semaphore's next waiter.
///
/// A ping-pong partner signals from the CPU it ran on last. If that is the CPU its waiter runs on
/// now, the partner can only signal once the waiter gives the CPU up, and every round the waiter
/// polls first is lost: on the AMD VM, two threads pinned to one CPU paid 1.9 µs of `pause` in
/// the semaphore's brief poll out of the count, then 64 rounds more and a yield, 5.4 µs a
/// hand-off against 2.8 µs for a POSIX semaphore's sleep and wake-up. With the hint, the waiter
/// yields after `SpinBudget.yieldSoonAfter` rounds (README.md, "LastSignaller").
///
/// The waiter's own signal says nothing (a semaphore used as a lock is signalled by whoever held
/// it, often the waiter itself), so the thread is kept with the CPU: its `pthread_self` shifted
/// left by 16 bits, or'd with the CPU number (a `pthread_t` is an address under 2^47).
///
/// A hint, not a protocol: relaxed loads and stores, a store only on a change (a pair that keeps
/// its CPUs writes it once). A stale value, or one another signaller overwrites meanwhile, costs
/// one early yield (a system call, about 0.4 µs with nobody else to run) or one poll at the usual
/// pace.
public struct LastSignaller: ~Copyable, @unchecked Sendable {
    @usableFromInline let packed = Atomic<Int>(-1)
    /// Waits in a row that found `isOnThisCPU` (`sharesThisCPU`); a hint like `packed`.
    @usableFromInline let sharedWaits = Atomic<Int>(0)

    public init() {}

    /// Called by a thread that signals a waiter (a semaphore's slow `signal`).
    @inlinable
    public func note() {
        let me = Self.pack(cpu: Int(rb_thread_cpu()))
        if packed.load(ordering: .relaxed) != me { packed.store(me, ordering: .relaxed) }
    }

    /// Whether another thread signalled last, from the CPU the calling thread runs on now.
    @inlinable
    public var isOnThisCPU: Bool {
        let last = packed.load(ordering: .relaxed)
        guard last >= 0 else { return false }
        let cpu = Int(rb_thread_cpu())
        return last & 0xFFFF == cpu && last != Self.pack(cpu: cpu)
    }

    /// `isOnThisCPU`, asked once per wait by its poll out of the count (`pollOutOfCount`) when the
    /// first rounds found no permit; after `sharedWaitsBeforeMove` such waits in a row found the
    /// signaller on this CPU, the waiter moves itself to another CPU it may run on, and answers
    /// false, unless another waiter moved off this CPU within `moveSpacing` (`moveOffThisCPU`).
    ///
    /// Two threads that take turns on one CPU look cache-hot to the kernel's balancer, which then
    /// leaves them there while the other CPU idles: a ping-pong process in that mode pays a yield
    /// and a context switch per hand-off (2–3 µs against 0.12), for its whole life. The move is
    /// `rb_thread_move_off_this_cpu`: the thread's affinity without this CPU for one system
    /// call, then as it was, so a thread its owner pinned keeps its mask, and one allowed this CPU
    /// alone never moves (README.md, "Moving off a shared CPU").
    @inlinable
    public var sharesThisCPU: Bool {
        guard isOnThisCPU else {
            if sharedWaits.load(ordering: .relaxed) != 0 { sharedWaits.store(0, ordering: .relaxed) }
            return false
        }
        let waits = sharedWaits.load(ordering: .relaxed) + 1
        if waits < Self.sharedWaitsBeforeMove {
            sharedWaits.store(waits, ordering: .relaxed)
            return true
        }
        sharedWaits.store(0, ordering: .relaxed)
        return !Self.moveOffThisCPU()
    }

    /// Moves the calling thread off its CPU, unless another thread moved off it within
    /// `moveSpacing`. Two partners sharing a CPU reach their 256th shared wait together, one wait
    /// apart: the first moves, and the second, whose hint still names the first's old CPU (a
    /// signal to a waiter out of the count notes nothing, and the first is still in its move),
    /// would follow it to the other CPU and share again, for good. True if it moved.
    @usableFromInline
    static func moveOffThisCPU() -> Bool {
        let slot = movedOffAt + (Int(rb_thread_cpu()) & (moveSlots - 1))
        let now = MonotonicInstant.now.nanoseconds, last = slot.pointee.load(ordering: .relaxed)
        guard now - last >= moveSpacing.nanosecondsSaturating,
            slot.pointee.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
        else { return false }
        guard rb_thread_move_off_this_cpu() == 1 else {
            // Pinned here: nobody left this CPU, so nobody else's move waits for this one.
            _ = slot.pointee.compareExchange(expected: now, desired: last, ordering: .relaxed)
            return false
        }
        RuntimeEvents.count(.cpuMoves)
        return true
    }

    /// How long after a move off a CPU no other waiter moves off it: about 500 hand-offs of a pair
    /// sharing a CPU, so a second pair there still moves soon after.
    public static var moveSpacing: Duration { .milliseconds(1) }
    /// When a thread last moved off each CPU (monotonic nanoseconds), in slot `cpu % moveSlots`: a
    /// hint read and written relaxed; two CPUs sharing a slot only delay each other's moves.
    private static let moveSlots = 64
    private nonisolated(unsafe) static let movedOffAt: UnsafeMutablePointer<Atomic<Int64>> = {
        let slots = UnsafeMutablePointer<Atomic<Int64>>.allocate(capacity: moveSlots)
        for slot in 0..<moveSlots { (slots + slot).initialize(to: Atomic(Int64.min / 2)) }
        return slots
    }()

    /// Waits in a row that found the signaller on the waiter's CPU before the waiter moves: about
    /// 0.7 ms of hand-offs in the shared mode, and at most one move (two system calls, a few
    /// microseconds) per 256 waits where sharing a CPU cannot be helped (more busy threads than
    /// CPUs).
    public static let sharedWaitsBeforeMove = 256

    @inlinable
    static func pack(cpu: Int) -> Int {
        Int(bitPattern: UInt(pthread_self())) << 16 | (cpu & 0xFFFF)
    }
}

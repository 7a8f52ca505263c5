import CRuntimeEvents
#if canImport(Glibc)
import Glibc
#endif
import RuntimeKit

/// Where our backends count their scheduling events: each thread in a slot of its own, summed
/// only when read (CThreadSlots.h; the races and orderings: Sources/CInterposer/README.md, "The
/// slots and their races"). Always on: a count is a load and a store on a line no other thread
/// writes, on paths that already do far more.
public enum RuntimeEvents {
    @inlinable @inline(__always)
    public static func count(_ event: RuntimeEvent, _ amount: Int = 1) {
        rb_event_add(Int32(event.rawValue), UInt64(truncatingIfNeeded: amount))
    }

    /// Gives up the CPU (`sched_yield`), counted as a `yields` event: where a poll or a search
    /// yields often, those yields are context switches the case pays for.
    @inlinable
    public static func yieldCPU() {
        count(.yields)
        sched_yield()
    }

    /// Yields like `yieldCPU` and says whether another thread ran on this CPU meanwhile: the
    /// yield took longer than `lentYield`. With nobody else to run, a `sched_yield` returns in
    /// 0.3–0.6 µs on these VMs; one that switched to another thread and back takes 1.7 µs or more
    /// (timed in C, PThreadPrimitives/README.md, "SpinBudget"). A clock read on each side (vDSO,
    /// about 25 ns) is small beside the system call.
    @inlinable
    public static func yieldCPULent() -> Bool {
        let before = MonotonicInstant.now.nanoseconds
        yieldCPU()
        return MonotonicInstant.now.nanoseconds - before > lentYield
    }

    /// Nanoseconds a `sched_yield` must take to have run another thread (`yieldCPULent`).
    public static let lentYield: Int64 = 1_500

    /// A slot of its own, for an owner that counts on a hot path (a worker, for its joins): one
    /// thread at a time counts into it, and the owner returns it when done (`returnSlot`); its
    /// counts stay in the totals.
    public struct Slot: @unchecked Sendable {
        @usableFromInline let address: UnsafeMutableRawPointer
    }

    public static func takeSlot() -> Slot { Slot(address: rb_events_take_slot()!) }

    public static func returnSlot(_ slot: Slot) { rb_events_return_slot(slot.address) }

    /// Counts into `slot`: a load and a store, no thread-local lookup. Only the one thread that
    /// counts into `slot` may call this.
    @inlinable @inline(__always)
    public static func count(_ event: RuntimeEvent, _ amount: Int = 1, in slot: Slot) {
        rb_event_add_to(slot.address, Int32(event.rawValue), UInt64(truncatingIfNeeded: amount))
    }

    /// Every event's total over all threads, in `RuntimeEvent`'s order, into `totals`
    /// (capacity `RuntimeEvent.count`). Never allocates.
    public static func read(into totals: UnsafeMutablePointer<UInt64>) {
        rb_events_read(totals, Int32(RuntimeEvent.count))
    }

    /// One event's total over all threads (`read`, into a buffer on the stack).
    public static func total(_ event: RuntimeEvent) -> UInt64 {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: RuntimeEvent.count) { totals in
            read(into: totals.baseAddress!)
            return totals[event.rawValue]
        }
    }
}

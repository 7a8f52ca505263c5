/// A queue's state word: every fact about who may run the queue's blocks, in one 64-bit atomic,
/// so each decision ("must I schedule this queue?", "may this sync run now?") is one
/// compare-and-exchange. The README beside this file lists the transitions and their races.
///
/// ```
///  bits 0-15   suspend count
///  bit  16     LOCKED       someone holds the queue exclusively: a drainer, a sync caller, a
///                           barrier. Never set together with ENQUEUED or BARRIER_WAIT.
///  bit  17     ENQUEUED     a token for the queue is on its target; whoever claims it drains.
///  bit  18     DIRTY        the list may hold blocks that nobody is about to run: set by a push
///                           that found the queue held, enqueued, suspended or waiting for a
///                           barrier; whoever ends that condition schedules the queue.
///  bit  19     BARRIER_WAIT (concurrent) a barrier is first in line and blocks still run: the
///                           last of them to finish schedules the queue.
///  bits 20-21  OVERRIDE     the highest priority among blocks waiting in the queue.
///  bits 32-62  IN_USE       (concurrent) blocks of the queue running now.
/// ```
@usableFromInline
enum QueueState {
    @usableFromInline static let suspendOne: UInt64 = 1
    @usableFromInline static let suspendMask: UInt64 = 0xFFFF
    @usableFromInline static let locked: UInt64 = 1 << 16
    @usableFromInline static let enqueued: UInt64 = 1 << 17
    @usableFromInline static let dirty: UInt64 = 1 << 18
    @usableFromInline static let barrierWait: UInt64 = 1 << 19
    @usableFromInline static let overrideShift: UInt64 = 20
    @usableFromInline static let overrideMask: UInt64 = 0b11 << 20
    @usableFromInline static let inUseOne: UInt64 = 1 << 32
    @usableFromInline static let inUseMask: UInt64 = 0x7FFF_FFFF << 32

    /// Conditions under which a new block must not schedule the queue: someone else will.
    @usableFromInline static let busy: UInt64 = locked | enqueued | barrierWait | suspendMask

    @inlinable static func isSuspended(_ s: UInt64) -> Bool { s & suspendMask != 0 }
    @inlinable static func inUse(_ s: UInt64) -> UInt64 { (s & inUseMask) >> 32 }
    @inlinable static func override(_ s: UInt64) -> Priority {
        Priority(rawValue: Int((s & overrideMask) >> overrideShift))!
    }
    @inlinable static func with(override p: Priority, _ s: UInt64) -> UInt64 {
        (s & ~overrideMask) | (UInt64(p.rawValue) << overrideShift)
    }
    /// True when nothing at all is going on: the state a `sync` fast path acquires from.
    @inlinable static func isIdle(_ s: UInt64) -> Bool { s & ~overrideMask == 0 }
}

import Synchronization

/// A work-stealing deque (Chase & Lev, "Dynamic Circular Work-Stealing Deque", SPAA 2005) with
/// the memory orderings of Lê, Pop, Cohen & Zappa Nardelli, "Correct and Efficient Work-Stealing
/// for Weak Memory Models", PPoPP 2013. One owner thread pushes and pops at the bottom (LIFO,
/// cache-warm); any thread steals from the top (FIFO, oldest first).
///
/// A fixed ring instead of a growing one: when it is full, `push` fails and the owner moves half
/// of its oldest jobs elsewhere (the pool's injector), so no old buffer ever needs reclaiming while
/// a thief may still read it. See README.md beside this file for every race and ordering.
///
/// Slots hold jobs as raw `Unmanaged` pointers in atomics. A thief reads a slot before it knows the
/// job is its own; if that read retained the job, an owner that had meanwhile popped and released
/// it would leave the thief holding a freed object. So reads are plain bits, and only the winner
/// of the `top` compare-exchange turns them back into a retained reference.
public final class WorkDeque<Job: AnyObject>: @unchecked Sendable {
    /// Slots in the ring. A power of two so `index & mask` replaces a division. 256 jobs is deep
    /// enough that a fork-join recursion rarely overflows, and small enough to stay in L1/L2.
    public static var defaultCapacity: Int { 256 }

    private let capacity: Int
    private let mask: Int
    private let slots: UnsafeMutablePointer<Atomic<UInt>>
    /// Next index a thief takes. Only ever increases (by compare-exchange).
    private let top = Atomic<Int>(0)
    /// Next index the owner pushes to. Written only by the owner.
    private let bottom = Atomic<Int>(0)

    /// - Precondition: `capacity` is a power of two, at least 2.
    public init(capacity: Int = WorkDeque.defaultCapacity) {
        precondition(capacity >= 2 && capacity & (capacity - 1) == 0, "deque capacity must be a power of two ≥ 2, got \(capacity)")
        self.capacity = capacity
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        while pop() != nil {}  // release jobs nobody ran (only at teardown)
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Owner only. Pushes `job` at the bottom; returns false (without taking it) when the ring is
    /// full, and the owner must move jobs out first.
    public func push(_ job: Job) -> Bool {
        let b = bottom.load(ordering: .relaxed)
        // acquiring: see thieves' progress on top, so a slot they have emptied can be reused.
        let t = top.load(ordering: .acquiring)
        if b - t >= capacity { return false }
        slots[b & mask].store(UInt(bitPattern: Unmanaged.passRetained(job).toOpaque()), ordering: .relaxed)
        // releasing: a thief that sees the new bottom sees the slot's contents (and the job's fields).
        bottom.store(b + 1, ordering: .releasing)
        return true
    }

    /// Owner only. Pops the newest job, or nil when empty (or a thief won the last one).
    public func pop() -> Job? {
        let b = bottom.load(ordering: .relaxed) - 1
        bottom.store(b, ordering: .relaxed)
        // The owner's write of bottom and its read of top must not be reordered with a thief's
        // write of top and read of bottom (store-load on both sides): only a full fence orders a
        // store before a later load. Without it both could take the last job.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        let t = top.load(ordering: .relaxed)
        guard t <= b else {
            bottom.store(b + 1, ordering: .relaxed)  // was empty: undo
            return nil
        }
        let bits = slots[b & mask].load(ordering: .relaxed)
        if t < b { return take(bits) }  // more than one job: no thief can reach this one
        // The last job: race the thieves for it through top, as they do.
        let won = top.compareExchange(expected: t, desired: t + 1, successOrdering: .sequentiallyConsistent,
                                      failureOrdering: .relaxed).exchanged
        bottom.store(b + 1, ordering: .relaxed)
        return won ? take(bits) : nil
    }

    /// Any thread. Steals the oldest job; nil when empty or when another thief (or the owner)
    /// won the race for it (callers treat both as "try elsewhere").
    public func steal() -> Job? {
        // acquiring on top: pairs with other thieves' successful compare-exchange.
        let t = top.load(ordering: .acquiring)
        // Same store-load ordering argument as in pop, from the thief's side.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        // acquiring on bottom: pairs with push's release, so the slot read below sees the job.
        let b = bottom.load(ordering: .acquiring)
        guard t < b else { return nil }
        let bits = slots[t & mask].load(ordering: .relaxed)  // speculative: not ours until the CAS
        guard top.compareExchange(expected: t, desired: t + 1, successOrdering: .sequentiallyConsistent,
                                  failureOrdering: .relaxed).exchanged else { return nil }
        return take(bits)
    }

    /// Approximate number of jobs (exact when no thread is pushing, popping or stealing).
    public var count: Int { max(0, bottom.load(ordering: .relaxed) - top.load(ordering: .relaxed)) }

    /// Turns slot bits the caller has won back into the reference `push` retained.
    private func take(_ bits: UInt) -> Job {
        Unmanaged<Job>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeRetainedValue()
    }
}

import Synchronization

/// A work-stealing deque (Chase & Lev, "Dynamic Circular Work-Stealing Deque", SPAA 2005) with
/// the memory orderings of Lê, Pop, Cohen & Zappa Nardelli, "Correct and Efficient Work-Stealing
/// for Weak Memory Models", PPoPP 2013. One owner thread pushes and pops at the bottom (LIFO,
/// cache-warm); any thread steals from the top (FIFO, oldest first), one job or a batch.
///
/// A fixed ring instead of a growing one: when it is full, `push` fails and the owner moves half
/// of its oldest jobs elsewhere (the pool's injector), so no old buffer ever needs reclaiming while
/// a thief may still read it. See README.md beside this file for every race and ordering.
///
/// Slots hold `JobRef`s as raw bits: a thief reads a slot before it knows the job is its own, and
/// a plain address can be read, and dropped, without touching the job.
public final class WorkDeque: @unchecked Sendable {
    /// Slots in the ring. A power of two so `index & mask` replaces a division. 256 jobs is deep
    /// enough that a fork-join recursion rarely overflows, and small enough to stay in L1/L2.
    public static let defaultCapacity = 256
    /// Most jobs one batch steal takes (the first is run, the rest seed the thief's own deque):
    /// enough that a thief stops stealing for a while, few enough that a victim with a burst is not
    /// emptied at once.
    public static let maximumBatch = 32

    // Internal rather than private so that push and pop can be inlined into `join`.
    @usableFromInline let capacity: Int
    @usableFromInline let mask: Int
    @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt>>
    /// Next index a thief takes. Only ever increases (by compare-exchange).
    @usableFromInline let top = Atomic<Int>(0)
    /// Next index the owner pushes to. Written only by the owner.
    @usableFromInline let bottom = Atomic<Int>(0)

    /// - Precondition: `capacity` is a power of two, at least 2.
    public init(capacity: Int = WorkDeque.defaultCapacity) {
        precondition(
            capacity >= 2 && capacity & (capacity - 1) == 0,
            "deque capacity must be a power of two ≥ 2, got \(capacity)")
        self.capacity = capacity
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Owner only. Pushes `job` at the bottom; returns false (without taking it) when the ring is
    /// full, and the owner must move jobs out first. `pushReportingSurplus` also says whether the
    /// deque held jobs before (the pool wakes a sleeper only for such surplus work).
    @inlinable @inline(__always)
    public func push(_ job: JobRef) -> Bool {
        pushReportingSurplus(job) != nil
    }

    /// `push`, returning nil when full, or whether other jobs were already waiting.
    @inlinable
    func pushReportingSurplus(_ job: JobRef) -> Bool? {
        let b = bottom.load(ordering: .relaxed)
        // acquiring: see thieves' progress on top, so a slot they have emptied can be reused.
        let t = top.load(ordering: .acquiring)
        if b - t >= capacity { return nil }
        slots[b & mask].store(job.bits, ordering: .relaxed)
        // releasing: a thief that sees the new bottom sees the slot's contents (and the job's fields).
        bottom.store(b + 1, ordering: .releasing)
        return b > t
    }

    /// Owner only. Pops the newest job, or nil when empty (or a thief won the last one).
    @inlinable
    func pop() -> JobRef? {
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
        if t < b { return JobRef(bits: bits) }  // more than one job: no thief can reach this one
        // The last job: race the thieves for it through top, as they do.
        let won = top.compareExchange(
            expected: t, desired: t + 1, successOrdering: .sequentiallyConsistent,
            failureOrdering: .relaxed
        ).exchanged
        bottom.store(b + 1, ordering: .relaxed)
        return won ? JobRef(bits: bits) : nil
    }

    /// Owner only, public for the deque's tests: `pop`.
    public func popForTesting() -> JobRef? { pop() }

    /// Any thread. Steals the oldest job; nil when empty or when another thief (or the owner)
    /// won the race for it (callers treat both as "try elsewhere").
    public func steal() -> JobRef? {
        // acquiring on top: pairs with other thieves' successful compare-exchange.
        let t = top.load(ordering: .acquiring)
        // Same store-load ordering argument as in pop, from the thief's side.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        // acquiring on bottom: pairs with push's release, so the slot read below sees the job.
        let b = bottom.load(ordering: .acquiring)
        guard t < b else { return nil }
        let bits = slots[t & mask].load(ordering: .relaxed)  // speculative: not ours until the CAS
        guard
            top.compareExchange(
                expected: t, desired: t + 1, successOrdering: .sequentiallyConsistent,
                failureOrdering: .relaxed
            ).exchanged
        else { return nil }
        return JobRef(bits: bits)
    }

    /// Steals up to half of the jobs (at most `maximumBatch`): returns the oldest to run now and
    /// pushes the rest onto `destination`, which must be the caller's own deque and empty.
    ///
    /// One compare-exchange per job, not one for the whole batch: the owner takes a job below the
    /// last one without any compare-exchange once it has seen `top < bottom - 1`, so a batch
    /// claimed in one step could include a job the owner popped in the meantime (README.md,
    /// "Batch steals"). Each step re-reads `bottom` after a fence, exactly as `steal` does.
    public func stealBatch(into destination: WorkDeque) -> JobRef? {
        var t = top.load(ordering: .acquiring)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        var b = bottom.load(ordering: .acquiring)
        let available = b - t
        guard available > 0 else { return nil }
        // Half, rounded up, so a single job can be stolen; never more than the batch limit.
        let wanted = min((available + 1) / 2, Self.maximumBatch, destination.capacity + 1)
        let destinationBottom = destination.bottom.load(ordering: .relaxed)
        precondition(
            destinationBottom == destination.top.load(ordering: .relaxed), "stealBatch into a deque that is not empty")
        var first: JobRef?
        var moved = 0
        for taken in 0..<wanted {
            if taken > 0 {
                atomicMemoryFence(ordering: .sequentiallyConsistent)
                b = bottom.load(ordering: .acquiring)
                guard t < b else { break }
            }
            let bits = slots[t & mask].load(ordering: .relaxed)  // speculative: not ours until the CAS
            guard
                top.compareExchange(
                    expected: t, desired: t + 1, successOrdering: .sequentiallyConsistent,
                    failureOrdering: .relaxed
                ).exchanged
            else { break }
            t += 1
            if first == nil {
                first = JobRef(bits: bits)
            } else {
                destination.slots[(destinationBottom + moved) & destination.mask].store(bits, ordering: .relaxed)
                moved += 1
            }
        }
        if moved > 0 {
            // releasing: thieves of `destination` that see its new bottom see the copied slots.
            destination.bottom.store(destinationBottom + moved, ordering: .releasing)
        }
        return first
    }

    /// Approximate number of jobs (exact when no thread is pushing, popping or stealing).
    public var count: Int { max(0, bottom.load(ordering: .relaxed) - top.load(ordering: .relaxed)) }
}

import CBlockCache
import RuntimeKit
import Synchronization

/// Which thread-local slot (CBlockCache.h) holds a thread's cache of one kind of block.
public enum BlockCacheSlot: Int32, Sendable {
    /// fifo-dispatch's task nodes.
    case fifoTaskNode = 0
    /// work-stealing's heap jobs (`async` blocks).
    case stealingHeapJob = 1
}

/// A fixed-size block a `BlockCache` recycles: it names its home cache and has one word the
/// cache may use as a link while the block is free.
public protocol CachedBlock: ~Copyable {
    /// The calling thread's slot for caches of this kind of block.
    static var cacheSlot: BlockCacheSlot { get }
    /// What the slot calls when a thread ends: `BlockCache<Self>.threadEnded`. Each block type
    /// supplies its own because a C function cannot be made inside generic code.
    static var cacheThreadExit: @convention(c) (UnsafeMutableRawPointer?) -> Void { get }
    /// A fresh block that goes home to `home`.
    init(home: Unmanaged<BlockCache<Self>>)
    /// The cache this block goes back to when it is done.
    var home: Unmanaged<BlockCache<Self>> { get }
    /// The block's link word while it is free, read and written only by the thread that holds
    /// the block at that moment: the cache's own orderings publish it (README.md, "BlockCache"). A
    /// block may use the same word as a link of its own while it is in use.
    static func cacheLink(of block: UnsafeMutablePointer<Self>) -> UInt
    static func setCacheLink(of block: UnsafeMutablePointer<Self>, to address: UInt)
    /// Whether a pool's workers hold finished blocks of this kind and return them in batches
    /// (`BlockCache.holdReturnsOnThisThread`). A constant, so each specialization keeps only its
    /// own path.
    static var returnsInBatches: Bool { get }
}

/// A thread's free blocks of one kind. A block is taken from the submitting thread's cache and,
/// once done, goes back to that same cache: directly when the same thread finishes it, else
/// through the cache's `remote` list (many threads push, the owner takes the whole list at once).
/// A thread that only submits and never runs work therefore gets its blocks back instead of
/// allocating forever, and the allocator never sees a block allocated on one thread and freed on
/// another (glibc's per-thread cache serves neither side of that).
///
/// `remote` is a stack pushed with compare-and-exchange and emptied only whole (exchange): no
/// single block is ever popped from it, so the ABA problem of a lock-free stack cannot occur.
///
/// For a kind of block that `returnsInBatches`, a pool's worker (a thread that called
/// `holdReturnsOnThisThread`) does not push each finished block of a submitter outside the pool
/// home at once: it holds up to `returnBatch` blocks of one home and pushes them as one list, and
/// sends what it holds before it goes idle (`sendHeldBlocks`) and when it ends. The submitter gets
/// its blocks back in batches instead of one compare-and-exchange on its `remote` per block, which
/// moved that word's cache line between the submitter and a worker on every task (README.md,
/// "BlockCache").
///
/// A block in flight may still point at its cache after the cache's thread has ended, so the
/// cache lives until its last block is freed: `references` counts the cache's blocks plus one for
/// its thread. When the thread ends, the cache frees the blocks it holds and swaps `orphanedMark`
/// into `remote`, which makes every later `pushRemote` free its block instead; whoever takes
/// `references` to zero frees the cache (README.md, "BlockCache").
///
/// Generic and inlinable so each backend's calls are specialized for its block type: an
/// unspecialized call would go through the type's metadata on every submission.
public final class BlockCache<Block: CachedBlock & ~Copyable>: @unchecked Sendable {
    public typealias BlockRef = UnsafeMutablePointer<Block>

    /// Blocks kept per thread at most; past that a finished block is freed.
    public static var capacity: Int { 1024 }

    /// Blocks a worker holds for one home before pushing them there as one list: one
    /// compare-and-exchange on the home's `remote` per 32 tasks instead of per task. At most this
    /// many blocks per worker are away from their home when it runs dry and allocates fresh ones.
    public static var returnBatch: Int { 32 }

    /// In `remote` once the thread has ended: not a block address (blocks are aligned).
    @usableFromInline
    static var orphanedMark: UInt { 1 }

    /// Blocks this cache allocated fresh (tests: steady-state submission must reuse blocks). Owner only.
    public var freshAllocations: Int { allocated.load(ordering: .relaxed) }

    // What only the owning thread touches is atomic all the same, relaxed (a plain load or store
    // on x86): a `var` of a class is checked for exclusive access at run time when the code using
    // it is inlined into another module, and those checks (`swift_beginAccess`), on a path every
    // task takes, cost more than the path itself (README.md, "BlockCache").
    @usableFromInline let allocated = Atomic<Int>(0)
    /// The free list (an address, 0 when empty), linked through the blocks' link words.
    @usableFromInline let local = Atomic<UInt>(0)
    /// How many blocks `local` holds, at most (unknown after taking a remote batch).
    @usableFromInline let localCount = Atomic<Int>(0)
    @usableFromInline let remote = Atomic<UInt>(0)
    /// True on a worker's thread, which holds other caches' blocks to return them in batches. Set
    /// once by the owner before its thread runs any block; read by other workers, whose blocks
    /// coming home to a worker are not held.
    @usableFromInline let holdsReturns = Atomic<Bool>(false)
    /// The blocks of one other cache (`heldHome`, an address) this thread finished and has not
    /// sent home yet: a list from `heldFirst` to `heldLast`, `heldCount` long. Owner only. While
    /// `heldCount` is above zero those blocks keep `heldHome` alive (its `references`).
    @usableFromInline let heldHome = Atomic<UInt>(0)
    @usableFromInline let heldFirst = Atomic<UInt>(0)
    @usableFromInline let heldLast = Atomic<UInt>(0)
    @usableFromInline let heldCount = Atomic<Int>(0)
    /// Blocks of this cache not yet freed, plus one while its thread lives.
    @usableFromInline let references = Atomic<Int>(1)

    @usableFromInline
    init() {}

    /// The calling thread's cache, created on its first use.
    @inlinable
    public static var current: Unmanaged<BlockCache> {
        if let raw = rb_block_cache(Block.cacheSlot.rawValue) { return Unmanaged.fromOpaque(raw) }
        return installForThisThread()
    }

    @inlinable
    @inline(never)
    static func installForThisThread() -> Unmanaged<BlockCache> {
        let cache = Unmanaged.passRetained(BlockCache())  // released by whoever frees its last reference
        rb_block_cache_install(Block.cacheSlot.rawValue, cache.toOpaque(), Block.cacheThreadExit)
        return cache
    }

    /// For `CachedBlock.cacheThreadExit`: the thread that owned `raw` (a cache) has ended.
    public static func threadEnded(_ raw: UnsafeMutableRawPointer?) {
        Unmanaged<BlockCache>.fromOpaque(raw!).takeUnretainedValue().orphan()
    }

    /// A block owned by the calling thread's cache: a free one, or a fresh one.
    @inlinable
    public static func allocate() -> BlockRef {
        let home = current
        return home._withUnsafeGuaranteedRef { $0.take(home: home) }
    }

    @inlinable
    @inline(never)
    func take(home: Unmanaged<BlockCache>) -> BlockRef {
        var first = local.load(ordering: .relaxed)
        if first == 0 {
            // acquire: the blocks' last writes by the threads that pushed them happen before reuse.
            first = remote.exchange(0, ordering: .acquiring)
            localCount.store(0, ordering: .relaxed)  // unknown after a remote batch; only bounds how many we keep
        }
        if let block = BlockRef(bitPattern: first) {
            local.store(Block.cacheLink(of: block), ordering: .relaxed)
            let count = localCount.load(ordering: .relaxed)
            if count > 0 { localCount.store(count - 1, ordering: .relaxed) }
            Block.setCacheLink(of: block, to: 0)
            RuntimeEvents.count(.nodesReused)
            return block
        }
        return allocateFresh(home: home)
    }

    @inlinable
    @inline(never)
    func allocateFresh(home: Unmanaged<BlockCache>) -> BlockRef {
        RuntimeEvents.count(.nodesAllocated)
        allocated.store(allocated.load(ordering: .relaxed) + 1, ordering: .relaxed)
        references.add(1, ordering: .relaxed)  // the owner's own reference keeps it above zero
        let block = BlockRef.allocate(capacity: 1)
        block.initialize(to: Block(home: home))
        return block
    }

    /// Returns a block whose fields have been cleared to its home cache (or frees it): kept at
    /// once when this thread is its home, held for a batch on a thread that holds returns, pushed
    /// home alone otherwise.
    @inlinable
    public static func recycle(_ block: BlockRef) {
        let home = block.pointee.home
        guard let raw = rb_block_cache(Block.cacheSlot.rawValue) else {
            return home._withUnsafeGuaranteedRef { $0.pushRemote(block) }
        }
        if raw == home.toOpaque() { return home._withUnsafeGuaranteedRef { $0.keepLocally(block) } }
        let own = Unmanaged<BlockCache>.fromOpaque(raw)
        if Block.returnsInBatches, own._withUnsafeGuaranteedRef({ $0.holdsReturns.load(ordering: .relaxed) }),
            !home._withUnsafeGuaranteedRef({ $0.holdsReturns.load(ordering: .relaxed) })
        {
            own._withUnsafeGuaranteedRef { $0.hold(block, for: home) }
        } else {
            home._withUnsafeGuaranteedRef { $0.pushRemote(block) }
        }
    }

    /// Makes the calling thread, a pool's worker, hold the blocks it finishes for other threads
    /// and return them in batches. The thread must call `sendHeldBlocks` before it goes idle, or
    /// a submitter that stopped submitting would not get its last blocks back (and an ended
    /// submitter's cache would live on) until this thread finished more work or ended.
    public static func holdReturnsOnThisThread() {
        current._withUnsafeGuaranteedRef { $0.holdsReturns.store(true, ordering: .relaxed) }
    }

    /// Sends the blocks the calling thread holds to their home. One load when it holds none.
    @inlinable
    public static func sendHeldBlocks() {
        guard let raw = rb_block_cache(Block.cacheSlot.rawValue) else { return }
        Unmanaged<BlockCache>.fromOpaque(raw)._withUnsafeGuaranteedRef {
            if $0.heldCount.load(ordering: .relaxed) > 0 { $0.sendHeld() }
        }
    }

    /// Adds a finished block of `home` to the list this thread holds; a block of another home
    /// first sends the held list to its own, and a full list goes home at once.
    @inlinable
    @inline(never)
    func hold(_ block: BlockRef, for home: Unmanaged<BlockCache>) {
        let address = UInt(bitPattern: home.toOpaque())
        var count = heldCount.load(ordering: .relaxed)
        if count > 0, heldHome.load(ordering: .relaxed) != address {
            sendHeld()
            count = 0
        }
        if count == 0 {
            heldHome.store(address, ordering: .relaxed)
            heldLast.store(UInt(bitPattern: block), ordering: .relaxed)
            Block.setCacheLink(of: block, to: 0)
        } else {
            Block.setCacheLink(of: block, to: heldFirst.load(ordering: .relaxed))
        }
        heldFirst.store(UInt(bitPattern: block), ordering: .relaxed)
        heldCount.store(count + 1, ordering: .relaxed)
        if count + 1 == Self.returnBatch { sendHeld() }
    }

    /// Pushes the held list onto its home's `remote` in one compare-and-exchange.
    @inlinable
    func sendHeld() {
        let count = heldCount.load(ordering: .relaxed)
        guard count > 0 else { return }
        let first = BlockRef(bitPattern: heldFirst.load(ordering: .relaxed)).unsafelyUnwrapped
        let last = BlockRef(bitPattern: heldLast.load(ordering: .relaxed)).unsafelyUnwrapped
        let home = Unmanaged<BlockCache>.fromOpaque(
            UnsafeRawPointer(bitPattern: heldHome.load(ordering: .relaxed)).unsafelyUnwrapped)
        heldCount.store(0, ordering: .relaxed)
        heldFirst.store(0, ordering: .relaxed)
        heldLast.store(0, ordering: .relaxed)
        home._withUnsafeGuaranteedRef { $0.pushRemote(first: first, last: last, count: count) }
    }

    @inlinable
    @inline(never)
    func keepLocally(_ block: BlockRef) {
        let count = localCount.load(ordering: .relaxed)
        guard count < Self.capacity else { return free(block) }
        Block.setCacheLink(of: block, to: local.load(ordering: .relaxed))
        local.store(UInt(bitPattern: block), ordering: .relaxed)
        localCount.store(count + 1, ordering: .relaxed)
    }

    @inlinable
    @inline(never)
    func pushRemote(_ block: BlockRef) {
        pushRemote(first: block, last: block, count: 1)
    }

    /// Pushes a list of `count` of this cache's blocks, linked from `first` to `last`, onto
    /// `remote`; frees them instead once the cache's thread has ended. Inlinable like the rest of
    /// the return path, so it is specialized for the block type (an unspecialized call reaches
    /// `setCacheLink` through the type's witness table on every push).
    @inlinable
    func pushRemote(first: BlockRef, last: BlockRef, count: Int) {
        var head = remote.load(ordering: .relaxed)
        while true {
            if head == Self.orphanedMark {
                Block.setCacheLink(of: last, to: 0)
                _ = Self.freeList(UInt(bitPattern: first))
                return drop(count)
            }
            Block.setCacheLink(of: last, to: head)
            // release: the blocks' cleared fields and links are visible to the owner that takes
            // the list.
            let (exchanged, original) = remote.compareExchange(
                expected: head, desired: UInt(bitPattern: first), successOrdering: .releasing, failureOrdering: .relaxed
            )
            if exchanged { return }
            head = original
        }
    }

    /// The thread ended: free the blocks it kept and those waiting in `remote`, and mark `remote`
    /// so that blocks still in flight are freed as they come home. The mark goes in by the same
    /// exchange that empties the list, so no push can land after it unseen.
    @usableFromInline
    func orphan() {
        sendHeld()  // other caches' blocks this thread held go home first: they are not its own
        var freed = Self.freeList(local.load(ordering: .relaxed))
        local.store(0, ordering: .relaxed)
        freed += Self.freeList(remote.exchange(Self.orphanedMark, ordering: .acquiring))
        drop(freed + 1)  // the blocks, and the thread's own reference
    }

    /// Frees a block of this cache.
    @usableFromInline
    func free(_ block: BlockRef) {
        Self.free(block)
        drop(1)
    }

    /// acquiringAndReleasing: every use of the cache by the threads that dropped earlier
    /// references happens before the last one frees it.
    @usableFromInline
    func drop(_ count: Int) {
        if references.subtract(count, ordering: .acquiringAndReleasing).newValue == 0 {
            Unmanaged.passUnretained(self).release()
        }
    }

    /// Frees a list of blocks; returns how many.
    @usableFromInline
    static func freeList(_ first: UInt) -> Int {
        var address = first, count = 0
        while let block = BlockRef(bitPattern: address) {
            address = Block.cacheLink(of: block)
            free(block)
            count += 1
        }
        return count
    }

    @usableFromInline
    static func free(_ block: BlockRef) {
        block.deinitialize(count: 1)
        block.deallocate()
    }
}

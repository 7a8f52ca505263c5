import CFIFODispatch
import PThreadPrimitives
import Synchronization

/// A thread's free nodes. A node is taken from the submitting thread's cache and, once run, goes
/// back to that same cache: directly when the same thread finishes it, else through the cache's
/// `remote` list (many threads push, the owner takes the whole list at once). A thread that only
/// submits and never runs blocks therefore gets its nodes back instead of allocating forever.
///
/// `remote` is a stack pushed with compare-and-exchange and emptied only whole (exchange): no
/// single node is ever popped from it, so the ABA problem of a lock-free stack cannot occur.
///
/// A node in flight may still point at its cache after the cache's thread has ended, so the cache
/// lives until its last node is freed: `references` counts the cache's nodes plus one for its
/// thread. When the thread ends, the cache frees the nodes it holds and swaps `orphanedMark` into
/// `remote`, which makes every later `pushRemote` free its node instead; whoever takes
/// `references` to zero frees the cache (README.md, "Node recycling (NodeCache)").
@usableFromInline
final class NodeCache: @unchecked Sendable {
    /// Nodes kept per thread at most; past that a finished node is freed.
    static let capacity = 1024

    /// Nodes this cache allocated fresh (tests: steady-state submission must reuse nodes). Owner only.
    private(set) var freshAllocations = 0

    /// In `remote` once the thread has ended: not a node address (nodes are aligned).
    static let orphanedMark: UInt = 1
    /// Caches alive in the process (tests: an ended thread's cache must go away).
    static let alive = Atomic<Int>(0)

    private var local: UInt = 0
    private var localCount = 0
    private let remote = Atomic<UInt>(0)
    /// Nodes of this cache not yet freed, plus one while its thread lives.
    private let references = Atomic<Int>(1)

    init() { Self.alive.add(1, ordering: .relaxed) }

    deinit { Self.alive.subtract(1, ordering: .relaxed) }

    /// The calling thread's cache, created on its first use.
    @inlinable
    static var current: Unmanaged<NodeCache> {
        if let raw = rb_fifo_cache() { return Unmanaged.fromOpaque(raw) }
        return installForThisThread()
    }

    @usableFromInline
    static func installForThisThread() -> Unmanaged<NodeCache> {
        let cache = Unmanaged.passRetained(NodeCache())  // released by whoever frees its last reference
        rb_fifo_install_cache(cache.toOpaque(), { raw in
            Unmanaged<NodeCache>.fromOpaque(raw!).takeUnretainedValue().orphan()
        })
        return cache
    }

    /// A fresh node owned by the calling thread's cache.
    @inlinable
    static func allocate() -> NodeRef {
        let home = current
        return home._withUnsafeGuaranteedRef { $0.take(home: home) }
    }

    @usableFromInline
    func take(home: Unmanaged<NodeCache>) -> NodeRef {
        if local == 0 {
            // acquire: the nodes' last writes by the threads that pushed them happen before reuse.
            local = remote.exchange(0, ordering: .acquiring)
            localCount = 0  // unknown after a remote batch; only bounds how many we keep
        }
        if local != 0 {
            let node = NodeRef(address: local)
            local = node.pointee.next.load(ordering: .relaxed)
            if localCount > 0 { localCount -= 1 }
            node.pointee.next.store(0, ordering: .relaxed)
            RuntimeEvents.count(.nodesReused)
            return node
        }
        RuntimeEvents.count(.nodesAllocated)
        freshAllocations += 1
        references.add(1, ordering: .relaxed)  // the owner's own reference keeps it above zero
        let node = NodeRef.allocate(capacity: 1)
        node.initialize(to: TaskNode(home: home))
        return node
    }

    /// Returns a node whose fields have been cleared to its home cache (or frees it).
    @inlinable
    static func recycle(_ node: NodeRef) {
        let home = node.pointee.home
        if let raw = rb_fifo_cache(), raw == home.toOpaque() {
            home._withUnsafeGuaranteedRef { $0.keepLocally(node) }
        } else {
            home._withUnsafeGuaranteedRef { $0.pushRemote(node) }
        }
    }

    @usableFromInline
    func keepLocally(_ node: NodeRef) {
        guard localCount < Self.capacity else { return free(node) }
        node.pointee.next.store(local, ordering: .relaxed)
        local = node.address
        localCount += 1
    }

    @usableFromInline
    func pushRemote(_ node: NodeRef) {
        var head = remote.load(ordering: .relaxed)
        while true {
            if head == Self.orphanedMark { return free(node) }
            node.pointee.next.store(head, ordering: .relaxed)
            // release: the node's cleared fields are visible to the owner that takes the list.
            let (exchanged, original) = remote.compareExchange(
                expected: head, desired: node.address, successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { return }
            head = original
        }
    }

    /// The thread ended: free the nodes it kept and those waiting in `remote`, and mark `remote`
    /// so that nodes still in flight are freed as they come home. The mark goes in by the same
    /// exchange that empties the list, so no push can land after it unseen.
    private func orphan() {
        var freed = Self.freeList(local)
        local = 0
        freed += Self.freeList(remote.exchange(Self.orphanedMark, ordering: .acquiring))
        drop(freed + 1)  // the nodes, and the thread's own reference
    }

    /// Frees a node of this cache.
    private func free(_ node: NodeRef) {
        Self.free(node)
        drop(1)
    }

    /// acquiringAndReleasing: every use of the cache by the threads that dropped earlier
    /// references happens before the last one frees it.
    private func drop(_ count: Int) {
        if references.subtract(count, ordering: .acquiringAndReleasing).newValue == 0 {
            Unmanaged.passUnretained(self).release()
        }
    }

    /// Frees a list of nodes; returns how many.
    private static func freeList(_ first: UInt) -> Int {
        var address = first, count = 0
        while address != 0 {
            let node = NodeRef(address: address)
            address = node.pointee.next.load(ordering: .relaxed)
            free(node)
            count += 1
        }
        return count
    }

    @usableFromInline
    static func free(_ node: NodeRef) {
        node.deinitialize(count: 1)
        node.deallocate()
    }
}

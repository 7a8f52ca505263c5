import CFIFODispatch
import Synchronization

/// A thread's free nodes. A node is taken from the submitting thread's cache and, once run, goes
/// back to that same cache: directly when the same thread finishes it, else through the cache's
/// `remote` list (many threads push, the owner takes the whole list at once). A thread that only
/// submits and never runs blocks therefore gets its nodes back instead of allocating forever.
///
/// `remote` is a stack pushed with compare-and-exchange and emptied only whole (exchange with 0):
/// no single node is ever popped from it, so the ABA problem of a lock-free stack cannot occur.
/// A cache is never freed (threads that submit are few; 48 bytes each): a node in flight may point
/// at it after its thread ended. When the thread ends its local nodes are freed and the cache is
/// marked orphaned; nodes finished after that are freed by whoever finishes them.
@usableFromInline
final class NodeCache: @unchecked Sendable {
    /// Nodes kept per thread at most; past that a finished node is freed.
    static let capacity = 1024

    /// Nodes this cache allocated fresh (tests: steady-state submission must reuse nodes). Owner only.
    private(set) var freshAllocations = 0

    private var local: UInt = 0
    private var localCount = 0
    private let remote = Atomic<UInt>(0)
    private let orphaned = Atomic<Bool>(false)

    /// The calling thread's cache, created on its first use.
    @inlinable
    static var current: Unmanaged<NodeCache> {
        if let raw = rb_fifo_cache() { return Unmanaged.fromOpaque(raw) }
        return installForThisThread()
    }

    @usableFromInline
    static func installForThisThread() -> Unmanaged<NodeCache> {
        let cache = Unmanaged.passRetained(NodeCache())  // never released: see the type's comment
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
            return node
        }
        freshAllocations += 1
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
        guard localCount < Self.capacity else { return Self.free(node) }
        node.pointee.next.store(local, ordering: .relaxed)
        local = node.address
        localCount += 1
    }

    @usableFromInline
    func pushRemote(_ node: NodeRef) {
        if orphaned.load(ordering: .acquiring) { return Self.free(node) }
        var head = remote.load(ordering: .relaxed)
        while true {
            node.pointee.next.store(head, ordering: .relaxed)
            // release: the node's cleared fields are visible to the owner that takes the list.
            let (exchanged, original) = remote.compareExchange(
                expected: head, desired: node.address, successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { return }
            head = original
        }
    }

    /// The thread ended: free what it kept. A node pushed to `remote` after this exchange stays
    /// there (a few bytes, only in that race); one pushed after `orphaned` is seen is freed.
    private func orphan() {
        orphaned.store(true, ordering: .sequentiallyConsistent)
        Self.freeList(local)
        local = 0
        Self.freeList(remote.exchange(0, ordering: .acquiring))
    }

    private static func freeList(_ first: UInt) {
        var address = first
        while address != 0 {
            let node = NodeRef(address: address)
            address = node.pointee.next.load(ordering: .relaxed)
            free(node)
        }
    }

    @usableFromInline
    static func free(_ node: NodeRef) {
        node.deinitialize(count: 1)
        node.deallocate()
    }
}

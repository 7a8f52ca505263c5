import PThreadPrimitives
import Synchronization

/// A thread's free task nodes: the generic per-thread `BlockCache` (PThreadPrimitives, with its
/// races in that README), in the slot for task nodes. A node's free-list link is its `next`, the
/// same word that links it into a queue's list while it is in use.
@usableFromInline
typealias NodeCache = BlockCache<TaskNode>

extension TaskNode: CachedBlock {
    @inlinable
    static var cacheSlot: BlockCacheSlot { .fifoTaskNode }

    @usableFromInline
    static var cacheThreadExit: @convention(c) (UnsafeMutableRawPointer?) -> Void {
        { NodeCache.threadEnded($0) }
    }

    /// fifo-dispatch's workers return nodes in batches: one at a time, a task submitted from
    /// outside the pool paid a compare-and-exchange on its submitter's `remote` word, a cache line
    /// moved between the two CPUs per task (PThreadPrimitives/README.md, "BlockCache").
    @inlinable
    static var returnsInBatches: Bool { true }

    @inlinable
    static func cacheLink(of node: NodeRef) -> UInt { node.pointee.next.load(ordering: .relaxed) }

    @inlinable
    static func setCacheLink(of node: NodeRef, to address: UInt) {
        node.pointee.next.store(address, ordering: .relaxed)
    }
}

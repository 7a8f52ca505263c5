import Synchronization

/// One entry of a queue's list: a block, a barrier block, a queue that has work (a token its
/// target drains), or a thread waiting in `sync`. Nodes live in raw memory and are recycled per
/// thread (`NodeCache`), so a steady stream of `async` calls allocates nothing but the block's own
/// closure context.
@usableFromInline
struct TaskNode: ~Copyable {
    /// The next node in a list (an address, 0 at the end). Written once by the pusher that links a
    /// node behind this one; see TaskList for the orderings.
    @usableFromInline let next: Atomic<UInt>
    @usableFromInline var kind: TaskKind
    @usableFromInline var priority: Priority
    @usableFromInline var work: (@Sendable () -> Void)?
    /// `.token`: the queue to drain (retained).
    @usableFromInline var drain: Unmanaged<FIFOQueue>?
    /// Set when a concurrent queue forwarded this node to its target: the queue whose width unit
    /// the node holds while it runs (retained), released when it finishes.
    @usableFromInline var widthOwner: Unmanaged<FIFOQueue>?
    /// `.syncWaiter`, `.syncBarrierWaiter`: the waiting thread (retained).
    @usableFromInline var waiter: Unmanaged<SyncWaiter>?
    /// The cache this node goes back to when it is done.
    @usableFromInline var home: Unmanaged<NodeCache>

    @inlinable
    init(home: Unmanaged<NodeCache>) {
        next = Atomic(0)
        kind = .block
        priority = .default
        work = nil
        drain = nil
        widthOwner = nil
        waiter = nil
        self.home = home
    }
}

@usableFromInline
typealias NodeRef = UnsafeMutablePointer<TaskNode>

@usableFromInline
enum TaskKind: UInt8 {
    case block
    /// Runs alone on a concurrent queue: after every block before it, before every block after it.
    case barrier
    /// A queue with work, pushed onto its target: draining it runs the queue's blocks.
    case token
    case syncWaiter
    case syncBarrierWaiter

    @inlinable
    var isBarrier: Bool { self == .barrier || self == .syncBarrierWaiter }
}

extension UnsafeMutablePointer where Pointee == TaskNode {
    @inlinable
    var address: UInt { UInt(bitPattern: self) }

    @inlinable
    init(address: UInt) { self = UnsafeMutablePointer(bitPattern: address)! }
}

import RuntimeKit
import Synchronization

/// One entry of a queue's list: a block, a barrier block, a queue that has work (a token its
/// target drains), or a thread waiting in `sync`. Nodes live in raw memory and are recycled per
/// thread (`NodeCache`), so a steady stream of `async` calls allocates nothing but the block's own
/// closure context, and a block given as a C function and its context (`dispatch_async_f`)
/// allocates and retains nothing.
@usableFromInline
struct TaskNode: ~Copyable {
    /// The next node in a list (an address, 0 at the end). Written once by the pusher that links a
    /// node behind this one; see TaskList for the orderings.
    @usableFromInline let next: Atomic<UInt>
    @usableFromInline var kind: TaskKind
    @usableFromInline var priority: Priority
    /// What the node carries, by kind; moved out (`takePayload`) when the node is run.
    @usableFromInline var payload: Payload
    /// Set when a concurrent queue forwarded this node to its target: the queue whose width unit
    /// the node holds while it runs (retained), released when it finishes.
    @usableFromInline var widthOwner: Unmanaged<FIFOQueue>?
    /// The cache this node goes back to when it is done.
    @usableFromInline var home: Unmanaged<NodeCache>

    @inlinable
    init(home: Unmanaged<NodeCache>) {
        next = Atomic(0)
        kind = .block
        priority = .default
        payload = .none
        widthOwner = nil
        self.home = home
    }
}

extension TaskNode {
    /// The payload, leaving `.none` behind: a move, so a closure is neither retained nor released.
    @inlinable
    mutating func takePayload() -> Payload {
        let taken = payload
        payload = .none
        return taken
    }
}

/// A node's payload. One field for all kinds keeps a node within one cache line (56 bytes).
@usableFromInline
enum Payload {
    case none
    /// `.block`, `.barrier`: a closure.
    case closure(@Sendable () -> Void)
    /// `.block`, `.barrier` as `dispatch_async_f` takes one: `function(context)`.
    case function(WorkFunction, UnsafeMutableRawPointer?)
    /// `.block` as `dispatch_group_async_f` takes one: `function(context)`, then a leave of the
    /// group, which a group with members keeps alive itself (FIFOGroup), so it is not retained.
    case groupFunction(WorkFunction, UnsafeMutableRawPointer?, Unmanaged<FIFOGroup>)
    /// `.block` as `dispatch_group_async` takes one: the closure, then a leave of the group (not
    /// retained, as above). The group is a field rather than a capture, so no second closure is
    /// allocated around the block (README.md, "Groups").
    case groupClosure(@Sendable () -> Void, Unmanaged<FIFOGroup>)
    /// `.token`: the queue to drain (retained).
    case drain(Unmanaged<FIFOQueue>)
    /// `.syncWaiter`, `.syncBarrierWaiter`: the waiting thread (retained).
    case waiter(Unmanaged<SyncWaiter>)
    /// Any kind a concurrent queue forwards: a node another concurrent queue below it forwarded
    /// already, which keeps its own `widthOwner`, so each queue on the way holds its width unit
    /// until the node has run (a queue through a queue through ...).
    case forwarded(NodeRef)
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

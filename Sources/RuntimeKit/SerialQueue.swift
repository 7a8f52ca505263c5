/// A queue that runs its blocks one at a time, in submission order, on whatever worker is free.
/// The writes of a block are visible to the blocks after it.
public protocol SerialQueue: Sendable {
    /// The label given at creation (copied).
    var label: String { get }
    /// Appends `work` to the queue and returns at once.
    func async(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` on the calling thread once every block submitted before it has finished, with
    /// the queue held so no other block of it runs meanwhile; returns its value or throws its error.
    /// Calling `sync` on the queue that is running the caller deadlocks, as in libdispatch.
    func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T
    /// `sync` in the `dispatch_sync_f` form: runs `function(context)` on the calling thread once
    /// every block submitted before it has finished, with the queue held. No closure, so nothing
    /// to box or retain per call. The default calls the closure `sync`; a queue over a C API
    /// that has this form passes it straight through.
    func sync(context: UnsafeMutableRawPointer?, _ function: WorkFunction)
    /// Appends `block` and returns at once: `dispatch_async_f` where the queue has it (nothing
    /// allocated or retained per call), otherwise the block's closure, made once, submitted again.
    func async(_ block: FunctionBlock)
}

extension SerialQueue {
    /// Inlinable so a caller specialized for a concrete queue calls that queue's closure `sync`
    /// directly (a non-escaping closure on the stack: nothing allocated).
    @inlinable
    public func sync(context: UnsafeMutableRawPointer?, _ function: WorkFunction) {
        sync { function(context) }
    }

    public func async(_ block: FunctionBlock) { async(block.closure) }
}

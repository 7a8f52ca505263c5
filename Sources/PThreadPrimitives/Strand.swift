import DequeModule
import RuntimeKit

/// A serial queue as a strand on a pool: blocks wait in a FIFO of their own, and at most one
/// drain job for the strand is on the pool at a time, so blocks run one at a time, in order, on
/// whichever worker the pool picks. The backend supplies how a drain job reaches its pool.
///
/// Ownership: `owned` is true while a drain job is queued or running, or while a `sync` caller
/// holds the strand. Whoever owns it is the only one who runs its blocks. A drain that reaches a
/// `sync` caller's place in line hands ownership to that caller and stops; the caller runs its
/// block on its own thread (as `dispatch_sync` does), then puts a drain back on the pool if blocks
/// are waiting. Every hand-over goes through `mutex` or the pool's own lock, which is what makes
/// one block's writes visible to the next.
public final class Strand: SerialQueue, @unchecked Sendable {
    /// Blocks one drain job runs before it yields its worker and goes to the back of the pool, so
    /// a busy strand cannot starve other strands or plain blocks sharing the pool.
    public static let blocksPerDrain = 64

    public let label: String
    private let submitDrain: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let beforeBlocking: (@Sendable () -> Void)?
    private let mutex = PThreadMutex()
    private var items = Deque<Item>()
    private var owned = false

    private enum Item {
        case block(@Sendable () -> Void)
        case syncCaller(MutexSemaphore)
    }

    /// - Parameters:
    ///   - submitDrain: puts a job on the backend's pool.
    ///   - beforeBlocking: called just before a `sync` caller blocks waiting for its turn (a
    ///     work-stealing pool uses it to make sure nobody waits on jobs the caller still holds).
    public init(label: String,
                submitDrain: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
                beforeBlocking: (@Sendable () -> Void)? = nil) {
        self.label = label
        self.submitDrain = submitDrain
        self.beforeBlocking = beforeBlocking
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        mutex.lock()
        items.append(.block(work))
        let mustStartDrain = !owned
        owned = true
        mutex.unlock()
        if mustStartDrain { submitDrain { self.drain() } }
    }

    /// Inlinable, with the non-generic halves out of line, so a caller in another module gets it
    /// specialized: a generic call across modules costs a metadata lookup per call.
    @inlinable
    public func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        acquireForSync()
        defer { release() }
        return try work()
    }

    /// Takes ownership for a `sync` caller: at once when the strand is idle, otherwise by waiting
    /// for a drain to hand it over at the caller's place in line.
    @usableFromInline
    func acquireForSync() {
        mutex.lock()
        if !owned {
            owned = true
            mutex.unlock()
        } else {
            let turn = MutexSemaphore(value: 0)
            items.append(.syncCaller(turn))
            mutex.unlock()
            beforeBlocking?()
            turn.wait()  // a drain hands us ownership when our place in line comes up
        }
    }

    /// Gives up ownership after a `sync`, or passes it to a new drain job if blocks are waiting.
    @usableFromInline
    func release() {
        mutex.lock()
        let mustStartDrain = !items.isEmpty
        owned = mustStartDrain
        mutex.unlock()
        if mustStartDrain { submitDrain { self.drain() } }
    }

    private func drain() {
        for _ in 0..<Self.blocksPerDrain {
            mutex.lock()
            guard let item = items.popFirst() else {
                owned = false
                mutex.unlock()
                return
            }
            mutex.unlock()
            switch item {
            case .block(let work):
                work()
            case .syncCaller(let turn):
                turn.signal()  // ownership moves to the sync caller, who restarts draining
                return
            }
        }
        submitDrain { self.drain() }  // still owned: yield the worker, keep our place
    }
}

import DequeModule
import RuntimeKit

/// A serial queue as a strand on a pool: blocks wait in a FIFO of their own, and at most one
/// party runs them at a time, in order: a drain job on whichever worker the pool picks, or a
/// `sync` caller on its own thread. The backend supplies how a drain job reaches its pool.
///
/// A `sync` caller never waits for a pool job. When the strand is passed on and a `sync` caller
/// is in line, the strand goes to that caller directly: it runs the blocks queued ahead of it,
/// then its own, on its own thread. A caller that finds a drain job still queued on the pool
/// (not yet running) takes the strand over from it in the same way, and the job, when it runs,
/// finds itself stale and does nothing. So when every worker is a `sync` caller there is still
/// always one running the strand (README.md, "Strand").
public final class Strand: SerialQueue, @unchecked Sendable {
    /// Blocks one drain job runs before it yields its worker and goes to the back of the pool, so
    /// a busy strand cannot starve other strands or plain blocks sharing the pool.
    public static let blocksPerDrain = 64

    public let label: String
    private let submitDrain: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let beforeBlocking: (@Sendable () -> Void)?
    private let mutex = PThreadMutex()
    private var items = Deque<Item>()
    private var owner = Owner.nobody
    /// `sync` callers with a turn marker in `items`.
    private var syncCallersInLine = 0
    /// Numbers drain jobs, so a job a `sync` caller took over can tell it is stale.
    private var drainTickets: UInt64 = 0

    private enum Item {
        case block(@Sendable () -> Void)
        case syncCaller(MutexSemaphore)
    }

    private enum Owner: Equatable {
        case nobody
        /// A drain job is on the pool and has not started; a `sync` caller may take over from it.
        case drainQueued(ticket: UInt64)
        /// A running drain job or a `sync` caller runs the blocks.
        case running
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
        let ticket = owner == .nobody ? queueDrainLocked() : nil
        mutex.unlock()
        if let ticket { submitDrain { self.drain(ticket) } }
    }

    /// Inlinable, with the non-generic halves out of line, so a caller in another module gets it
    /// specialized: a generic call across modules costs a metadata lookup per call.
    @inlinable
    public func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        acquireForSync()
        defer { release() }
        return try work()
    }

    /// Takes the strand for a `sync` caller: at once when it is idle; otherwise in line behind
    /// the blocks already queued, which the caller runs itself once the strand is its own.
    @usableFromInline
    func acquireForSync() {
        mutex.lock()
        switch owner {
        case .nobody:
            owner = .running
            mutex.unlock()
        case .drainQueued:
            // The queued drain may never get a worker (every worker may be a caller like this
            // one): take the strand from it. No turn marker is in line while a drain is queued
            // (a strand passed on with a caller in line goes to that caller), so every item is a
            // block, and the caller runs them all before its own.
            owner = .running
            let turn = MutexSemaphore(value: 0)
            appendTurnLocked(turn)
            mutex.unlock()
            runBlocks(aheadOf: turn)
        case .running:
            let turn = MutexSemaphore(value: 0)
            appendTurnLocked(turn)
            mutex.unlock()
            beforeBlocking?()
            turn.wait()  // whoever runs the strand passes it to us when we are first caller in line
            runBlocks(aheadOf: turn)
        }
    }

    /// Passes the strand on after a `sync`.
    @usableFromInline
    func release() { passOn() }

    private func appendTurnLocked(_ turn: MutexSemaphore) {
        items.append(.syncCaller(turn))
        syncCallersInLine += 1
    }

    /// Runs the blocks in line ahead of `turn`, then takes `turn` out of the line. The strand is
    /// the caller's; no other caller's turn can be ahead of it (the strand goes to the first).
    private func runBlocks(aheadOf turn: MutexSemaphore) {
        while true {
            mutex.lock()
            let item = items.removeFirst()
            if case .syncCaller = item { syncCallersInLine -= 1 }
            mutex.unlock()
            switch item {
            case .block(let work):
                work()
            case .syncCaller(let found):
                precondition(found === turn, "strand '\(label)': a sync caller's turn came up ahead of the caller running the strand")
                return
            }
        }
    }

    private func drain(_ ticket: UInt64) {
        mutex.lock()
        guard owner == .drainQueued(ticket: ticket) else {
            mutex.unlock()  // a sync caller took the strand over while this job waited for a worker
            return
        }
        owner = .running
        mutex.unlock()
        for _ in 0..<Self.blocksPerDrain {
            mutex.lock()
            guard case .block(let work)? = items.first else {
                mutex.unlock()
                break  // empty, or a sync caller's turn
            }
            items.removeFirst()
            mutex.unlock()
            work()
        }
        passOn()  // after blocksPerDrain blocks, too: yield the worker, keep the strand's place
    }

    /// The owner stops running blocks: the strand becomes idle, or goes to the first `sync`
    /// caller in line (who runs the blocks ahead of its turn), or to a new drain job.
    private func passOn() {
        mutex.lock()
        if items.isEmpty {
            owner = .nobody
            mutex.unlock()
            return
        }
        if syncCallersInLine > 0 {
            let turn = firstTurnLocked()
            mutex.unlock()  // owner stays .running: it passes to the caller
            turn.signal()
            return
        }
        let ticket = queueDrainLocked()
        mutex.unlock()
        submitDrain { self.drain(ticket) }
    }

    private func queueDrainLocked() -> UInt64 {
        drainTickets &+= 1
        owner = .drainQueued(ticket: drainTickets)
        return drainTickets
    }

    private func firstTurnLocked() -> MutexSemaphore {
        for item in items {
            if case .syncCaller(let turn) = item { return turn }
        }
        preconditionFailure("strand '\(label)': \(syncCallersInLine) sync callers counted in line, none found")
    }
}

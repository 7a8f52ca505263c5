import DequeModule
import RuntimeKit
import Synchronization

/// A serial queue as a strand on a pool: blocks wait in a FIFO of their own, and at most one
/// party runs them at a time, in order: a drain job on whichever worker the pool picks, or a
/// `sync` caller on its own thread. The backend supplies how a drain job reaches its pool.
///
/// A `sync` caller never waits for a pool job. When the strand is passed on and a `sync` caller
/// is in line, the strand goes to that caller directly: it runs the blocks queued ahead of it,
/// then its own, on its own thread. A caller that finds a drain job still queued on the pool
/// (not yet running) takes the strand over from it in the same way, and the job, when it runs,
/// finds the strand no longer waiting for a drain and does nothing. So when every worker is a
/// `sync` caller there is still always one running the strand (README.md, "Strand (serial queue on a pool)").
public final class Strand: SerialQueue, @unchecked Sendable {
    /// Blocks one drain job runs before it yields its worker and goes to the back of the pool, so
    /// a busy strand cannot starve other strands or plain blocks sharing the pool.
    public static let blocksPerDrain = 64

    public let label: String
    private let submitDrain: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let beforeBlocking: (@Sendable () -> Void)?
    private let mutex = PThreadMutex()
    private var items = Deque<Item>()
    private var owner = Owner.nobody {
        didSet { idle.store(owner == .nobody, ordering: .relaxed) }
    }
    /// `owner == .nobody`, readable without the mutex: what a contended `sync` polls.
    private let idle = Atomic<Bool>(true)
    /// How long a contended `sync` polls for the strand to fall idle before it waits in line.
    private let syncPolls = SpinBudget()
    /// `sync` callers with a turn marker in `items`.
    private var syncCallersInLine = 0

    private enum Item {
        case block(@Sendable () -> Void)
        case syncCaller(TokenSemaphore)
    }

    /// A job that finds `drainQueued` runs the strand, whichever job was submitted for that
    /// state: a job left over from a takeover may serve a later state, and the later state's own
    /// job then finds nothing to do. Either way one job runs the strand per `drainQueued`, and the
    /// drain closure captures only `self` (no context to allocate per submission, as a ticket in
    /// it would need; README.md, "Strand").
    private enum Owner: Equatable {
        case nobody
        /// A drain job is on the pool and has not started; a `sync` caller may take over from it.
        case drainQueued
        /// A running drain job or a `sync` caller runs the blocks.
        case running
    }

    /// - Parameters:
    ///   - submitDrain: puts a job on the backend's pool.
    ///   - beforeBlocking: called just before a `sync` caller blocks waiting for its turn (a
    ///     work-stealing pool uses it to make sure nobody waits on jobs the caller still holds).
    public init(
        label: String,
        submitDrain: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        beforeBlocking: (@Sendable () -> Void)? = nil
    ) {
        self.label = label
        self.submitDrain = submitDrain
        self.beforeBlocking = beforeBlocking
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        mutex.lock()
        items.append(.block(work))
        let mustStartDrain = owner == .nobody
        if mustStartDrain { owner = .drainQueued }
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

    /// Takes the strand for a `sync` caller: at once when it is idle; otherwise in line behind
    /// the blocks already queued, which the caller runs itself once the strand is its own.
    @usableFromInline
    func acquireForSync() {
        mutex.lock()
        if owner == .running {
            // A `sync` or a short drain often passes the strand on within a microsecond, sooner
            // than a turn is signalled through the kernel. And a turn in line makes the next
            // caller queue behind it, and the one after: once two callers take turns, every
            // section pays a wake-up (README.md, "Strand (serial queue on a pool)").
            mutex.unlock()
            if syncPolls.poll(until: { idle.load(ordering: .relaxed) && takeIfIdle() }) { return }
            mutex.lock()
        }
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
            let turn = TokenSemaphore(value: 0)
            appendTurnLocked(turn)
            mutex.unlock()
            runBlocks(aheadOf: turn)
        case .running:
            let turn = TokenSemaphore(value: 0)
            appendTurnLocked(turn)
            mutex.unlock()
            // Whoever runs the strand passes it to us when we are first caller in line. The turn
            // polls a moment first: a caller passed the strand while it polls is spared a wake-up.
            turn.wait { beforeBlocking?() }
            runBlocks(aheadOf: turn)
        }
    }

    /// Takes the strand for a polling `sync` caller if nobody runs it; false if another party
    /// took it first, or holds the mutex now: the caller polls on rather than sleep in the kernel
    /// on a mutex held for a few dozen nanoseconds.
    private func takeIfIdle() -> Bool {
        guard mutex.tryLock() else { return false }
        defer { mutex.unlock() }
        guard owner == .nobody else { return false }
        owner = .running
        return true
    }

    /// Passes the strand on after a `sync`.
    @usableFromInline
    func release() { passOn() }

    private func appendTurnLocked(_ turn: TokenSemaphore) {
        items.append(.syncCaller(turn))
        syncCallersInLine += 1
    }

    /// Runs the blocks in line ahead of `turn`, then takes `turn` out of the line. The strand is
    /// the caller's; no other caller's turn can be ahead of it (the strand goes to the first).
    private func runBlocks(aheadOf turn: TokenSemaphore) {
        while true {
            mutex.lock()
            let item = items.removeFirst()
            if case .syncCaller = item { syncCallersInLine -= 1 }
            mutex.unlock()
            switch item {
            case .block(let work):
                work()
            case .syncCaller(let found):
                precondition(
                    found === turn,
                    "strand '\(label)': a sync caller's turn came up ahead of the caller running the strand")
                return
            }
        }
    }

    /// One critical section per block, as a drain that owned the strand outright had: the owner
    /// check takes the first block, and each relock after a block takes the next or passes the
    /// strand on. (Separate sections for the check and the pass-on would take the mutex once more
    /// per block; README.md, "Strand".)
    private func drain() {
        mutex.lock()
        guard owner == .drainQueued else {
            mutex.unlock()  // a sync caller took the strand over while this job waited for a worker
            return
        }
        owner = .running
        var ran = 0
        // Stops when empty, at a sync caller's turn, or after blocksPerDrain blocks (then yield
        // the worker, keeping the strand's place).
        while ran < Self.blocksPerDrain, case .block(let work)? = items.first {
            items.removeFirst()
            mutex.unlock()
            work()
            ran += 1
            mutex.lock()
        }
        passOnLocked()
    }

    /// The owner stops running blocks: the strand becomes idle, or goes to the first `sync`
    /// caller in line (who runs the blocks ahead of its turn), or to a new drain job.
    private func passOn() {
        mutex.lock()
        passOnLocked()
    }

    /// `passOn` with the mutex held; unlocks it.
    private func passOnLocked() {
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
        owner = .drainQueued
        mutex.unlock()
        submitDrain { self.drain() }
    }

    private func firstTurnLocked() -> TokenSemaphore {
        for item in items {
            if case .syncCaller(let turn) = item { return turn }
        }
        preconditionFailure("strand '\(label)': \(syncCallersInLine) sync callers counted in line, none found")
    }
}

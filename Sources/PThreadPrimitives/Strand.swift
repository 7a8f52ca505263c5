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
    /// Who runs the strand and whether anything waits in `items`, in one word: a `sync` on an idle
    /// strand takes it, and a `sync` with nothing in line behind it gives it back, with one
    /// compare-and-exchange each and no mutex. Every other change is made under the mutex, beside
    /// `items` (README.md, "Strand (serial queue on a pool)").
    private let state = Atomic<StrandState>(.idle)
    private let mutex = PThreadMutex()
    private var items = Deque<Item>()
    /// How long a contended `sync` polls for the strand to fall idle before it waits in line.
    private let syncPolls = SpinBudget(for: .lock)
    /// `sync` callers with a turn marker in `items`.
    private var syncCallersInLine = 0

    private enum Item {
        case block(@Sendable () -> Void)
        case syncCaller(TokenSemaphore)
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
        let mustStartDrain = occupyLineLocked(whenIdle: .drainQueued) == .nobody
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
        if takeIfIdle() { return }
        acquireContended()
    }

    /// The idle strand becomes the caller's. acquiring: the last runner's blocks, released when it
    /// gave the strand up, happen before the caller's.
    private func takeIfIdle() -> Bool {
        state.compareExchange(expected: .idle, desired: .running, ordering: .acquiring).exchanged
    }

    private func acquireContended() {
        // A `sync` or a short drain often gives the strand up within a microsecond, sooner than a
        // turn is signalled through the kernel. And a turn in line makes the next caller queue
        // behind it, and the one after: once two callers take turns, every section pays a
        // wake-up (README.md, "Strand (serial queue on a pool)").
        if state.load(ordering: .relaxed).owner == .running,
            syncPolls.pollForLock(until: { state.load(ordering: .relaxed) == .idle && takeIfIdle() })
        {
            return
        }
        mutex.lock()
        var current = state.load(ordering: .acquiring)
        while true {
            switch current.owner {
            case .nobody:
                // acquiringAndReleasing, as every change made under the mutex: the word is read
                // outside it by the fast paths.
                let (taken, found) = state.compareExchange(
                    expected: current, desired: .running, ordering: .acquiringAndReleasing)
                if taken {
                    mutex.unlock()
                    return
                }
                current = found  // another caller took the idle strand first
            case .drainQueued:
                // The queued drain may never get a worker (every worker may be a caller like this
                // one): take the strand from it. No turn marker is in line while a drain is queued
                // (a strand passed on with a caller in line goes to that caller), so every item is
                // a block, and the caller runs them all before its own. Neither fast path acts on
                // this word, so a store is enough.
                state.store(StrandState(owner: .running, lineOccupied: true), ordering: .releasing)
                let turn = TokenSemaphore(value: 0)
                appendTurnLocked(turn)
                mutex.unlock()
                runBlocks(aheadOf: turn)
                return
            case .running:
                // Occupied before the turn is appended, so the runner cannot give the strand up
                // by the fast path with a turn in line; if it gave it up just now, take it.
                guard occupyLineLocked(whenIdle: nil) == .running else {
                    current = state.load(ordering: .acquiring)
                    continue
                }
                let turn = TokenSemaphore(value: 0)
                appendTurnLocked(turn)
                mutex.unlock()
                // Whoever runs the strand passes it to us when we are first caller in line. The
                // turn polls a moment first: a caller passed the strand while it polls is spared
                // a wake-up.
                turn.wait { beforeBlocking?() }
                runBlocks(aheadOf: turn)
                return
            }
        }
    }

    /// With the mutex held, around an append to `items`: marks the line occupied, so neither fast
    /// path acts until it is empty again, and returns the owner it found. An idle strand gets
    /// `whenIdle` as its owner; with nil it is left idle (and `nobody` returned) for the caller
    /// to take. A word already marked is stable: both fast paths expect an empty line.
    private func occupyLineLocked(whenIdle: StrandState.Owner?) -> StrandState.Owner {
        var current = state.load(ordering: .acquiring)
        while !current.lineOccupied {
            var owner = current.owner
            if owner == .nobody {
                guard let whenIdle else { return .nobody }
                owner = whenIdle
            }
            // Only the fast paths race with this, and a failed exchange sees what they left.
            let (marked, found) = state.compareExchange(
                expected: current, desired: StrandState(owner: owner, lineOccupied: true),
                ordering: .acquiringAndReleasing)
            if marked { return current.owner }
            current = found
        }
        return current.owner
    }

    /// Passes the strand on after a `sync`: with nothing in line, one exchange makes it idle.
    /// releasing: the caller's block happens before the next runner's.
    @usableFromInline
    func release() {
        if state.compareExchange(expected: .running, desired: .idle, ordering: .releasing).exchanged { return }
        passOn()
    }

    private func appendTurnLocked(_ turn: TokenSemaphore) {
        items.append(.syncCaller(turn))
        syncCallersInLine += 1
    }

    /// Runs the blocks in line ahead of `turn`, then takes `turn` out of the line. The strand is
    /// the caller's; no other caller's turn can be ahead of it (the strand goes to the first).
    private func runBlocks(aheadOf turn: TokenSemaphore) {
        while true {
            mutex.lock()
            let item = takeFirstLocked()
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

    /// A job that finds `drainQueued` runs the strand, whichever job was submitted for that state:
    /// a job left over from a takeover may serve a later state, and the later state's own job then
    /// finds nothing to do. Either way one job runs the strand per `drainQueued`, and the drain
    /// closure captures only `self` (no context to allocate per submission, as a ticket in it
    /// would need; README.md, "Strand").
    ///
    /// One critical section per block, as a drain that owned the strand outright had: the owner
    /// check takes the first block, and each relock after a block takes the next or passes the
    /// strand on. (Separate sections for the check and the pass-on would take the mutex once more
    /// per block; README.md, "Strand".)
    private func drain() {
        mutex.lock()
        // Neither fast path acts on a queued drain's word (its line is occupied): a store is enough.
        guard state.load(ordering: .acquiring).owner == .drainQueued else {
            mutex.unlock()  // a sync caller took the strand over while this job waited for a worker
            return
        }
        state.store(StrandState(owner: .running, lineOccupied: true), ordering: .releasing)
        var ran = 0
        // Stops when empty, at a sync caller's turn, or after blocksPerDrain blocks (then yield
        // the worker, keeping the strand's place).
        while ran < Self.blocksPerDrain, case .block(let work)? = items.first {
            _ = takeFirstLocked()
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

    /// `passOn` with the mutex held; unlocks it. The word reads `running` here, and only its
    /// runner (this thread) may change it outside the mutex: stores are enough.
    private func passOnLocked() {
        if items.isEmpty {
            // releasing: the blocks run so far happen before the next runner's.
            state.store(.idle, ordering: .releasing)
            mutex.unlock()
            return
        }
        if syncCallersInLine > 0 {
            let turn = firstTurnLocked()
            mutex.unlock()  // the word stays `running`: the strand passes to the caller
            turn.signal()
            return
        }
        state.store(StrandState(owner: .drainQueued, lineOccupied: true), ordering: .releasing)
        mutex.unlock()
        submitDrain { self.drain() }
    }

    /// The first item, taken by the strand's runner with the mutex held; the line's mark goes with
    /// the last item, so the runner can give the strand up by the fast path. Only the runner
    /// changes a `running` word outside the mutex, so a store is enough.
    private func takeFirstLocked() -> Item {
        let item = items.removeFirst()
        if items.isEmpty { state.store(.running, ordering: .relaxed) }
        return item
    }

    private func firstTurnLocked() -> TokenSemaphore {
        for item in items {
            if case .syncCaller(let turn) = item { return turn }
        }
        preconditionFailure("strand '\(label)': \(syncCallersInLine) sync callers counted in line, none found")
    }
}

/// A strand's state word: who runs it, and whether its line (`items`) holds anything.
struct StrandState: RawRepresentable, AtomicRepresentable, Equatable {
    enum Owner: UInt8 {
        case nobody = 0
        /// A drain job is on the pool and has not started; a `sync` caller may take over from it.
        case drainQueued = 1
        /// A running drain job or a `sync` caller runs the blocks.
        case running = 2
    }

    static var idle: StrandState { StrandState(owner: .nobody, lineOccupied: false) }
    static var running: StrandState { StrandState(owner: .running, lineOccupied: false) }

    private static let ownerBits: UInt8 = 0b011
    private static let lineBit: UInt8 = 0b100

    var rawValue: UInt8

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(owner: Owner, lineOccupied: Bool) {
        rawValue = owner.rawValue | (lineOccupied ? Self.lineBit : 0)
    }

    // The word is only ever built from an `Owner`, so its bits always name one.
    var owner: Owner { Owner(rawValue: rawValue & Self.ownerBits).unsafelyUnwrapped }

    /// Set while `items` holds anything (a block or a turn), which `nobody` never does.
    var lineOccupied: Bool { rawValue & Self.lineBit != 0 }
}

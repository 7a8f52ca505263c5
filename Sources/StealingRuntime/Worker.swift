import CCurrentWorker
import PThreadPrimitives

/// One worker thread of a `StealingRuntime`: its own deque, its place in the pool, and a small
/// random generator for picking victims.
@usableFromInline
final class Worker: @unchecked Sendable {
    let index: Int
    @usableFromInline
    let deque = WorkDeque()
    /// The pool this worker belongs to, compared by identity only: asking "is this thread a worker
    /// of that runtime?" must not retain the runtime (every worker would fight over its reference
    /// count), and a `let` is read without a dynamic exclusivity check.
    @usableFromInline
    let pool: ObjectIdentifier
    /// xorshift64 state: victim choice needs speed and spread, not quality.
    private var random: UInt64
    /// This worker's event slot (only this worker's thread counts into it).
    let events = RuntimeEvents.takeSlot()
    /// Joins this worker ran inline since it last published them into `events`: a plain counter
    /// that only this worker's thread touches, through a pointer so that it needs no exclusivity
    /// check. Counting each join into the slot at once would put an atomic load and store in
    /// every join, which keeps the optimizer from merging the join's own loads around it; a plain
    /// increment costs nothing measurable (README.md, "Events").
    ///
    /// Alone in its cache line: it is written at every join, and as an 8-byte block of its own
    /// the allocator may put the two workers' counters side by side, so that every join of one
    /// worker evicts the other's line.
    ///
    /// A line-aligned block (`CacheLine.allocate`, once per worker) rather than `LineSlots`,
    /// whose extra stored struct makes every worker object larger, which lazy joins feel
    /// (README.md, "Events").
    @usableFromInline
    let unpublishedJoins = CacheLine.allocate(Int.self)

    init(index: Int, pool: ObjectIdentifier) {
        self.index = index
        self.pool = pool
        random = 0x9E37_79B9_7F4A_7C15 &* UInt64(index + 1)
        unpublishedJoins.initialize(to: 0)
    }

    /// After its thread has ended (the runtime holds its workers until then).
    deinit {
        RuntimeEvents.returnSlot(events)
        unpublishedJoins.deallocate()
    }

    /// Moves the joins counted since the last call into the event slot, where a reader sees them:
    /// after each job the worker runs (joins happen only inside jobs), and before an outside
    /// caller's join returns. From this worker's thread only.
    func publishEvents() {
        guard unpublishedJoins.pointee != 0 else { return }
        RuntimeEvents.count(.joinsInline, unpublishedJoins.pointee, in: events)
        unpublishedJoins.pointee = 0
    }

    /// A victim index in `0..<count`, never this worker.
    func randomVictim(among count: Int) -> Int {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        let offset = Int(random % UInt64(count - 1)) + 1
        return (index + offset) % count
    }
}

/// Which worker (of which runtime) the calling thread is, in a C thread-local slot: `async` from a
/// worker pushes to its own deque (no lock, no wake-up storm), from elsewhere to the injector.
///
/// Lookups hand out the worker unretained: a join asks on every call, and an atomic retain and
/// release per join would cost more than the join itself. The slot holds a retained reference
/// while the thread runs its runtime's loop, and a worker lives as long as its runtime.
@usableFromInline
enum CurrentWorker {
    static func set(_ worker: Worker) {
        rb_set_current_worker(Unmanaged.passRetained(worker).toOpaque())
    }

    static func clear() {
        if let raw = rb_current_worker() {
            Unmanaged<Worker>.fromOpaque(raw).release()
            rb_set_current_worker(nil)
        }
    }

    /// The calling thread's worker if it belongs to `runtime`, unretained.
    @inlinable
    static func unmanaged(of runtime: StealingRuntime) -> Unmanaged<Worker>? {
        guard let raw = rb_current_worker() else { return nil }
        let worker = Unmanaged<Worker>.fromOpaque(raw)
        return worker._withUnsafeGuaranteedRef { $0.pool == runtime.poolIdentity } ? worker : nil
    }

    /// The calling thread's worker if it belongs to `runtime` (for paths that are not per join).
    static func of(_ runtime: StealingRuntime) -> Worker? {
        unmanaged(of: runtime)?.takeUnretainedValue()
    }
}

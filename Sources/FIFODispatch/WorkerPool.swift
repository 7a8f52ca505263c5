import CFIFODispatch
import CSpinHint
#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// The threads, the root queues they serve (one per priority band, highest first) and the main
/// queue's root, which only `dispatchMain` or `drainMainQueue` serves.
///
/// Parking loses no wake-up: a worker about to sleep reads the epoch, announces itself in `idle`,
/// looks at every root once more, and only then sleeps on the epoch; a submitter pushes, then
/// reads `idle`, and if anyone is idle advances the epoch and wakes one. Both sides write, then
/// read the other's word, all sequentially consistent, so at least one sees the other (README).
///
/// A worker that blocks on one of this backend's semaphores, groups or a `sync` tells the pool
/// (`willBlock`); if no worker is idle to take its place, a spare starts at once (at most
/// `maximumSpares` beyond the width). Surplus threads retire after a second idle.
@usableFromInline
final class WorkerPool: @unchecked Sendable {
    /// libdispatch caps its overcommit threads at 255; so do we.
    static let maximumSpares = 255
    /// Rounds of looking for work before parking: short, so an idle pool goes quiet within
    /// tens of microseconds (see the idle-CPU test), long enough to catch the next block of a burst.
    static let spinRounds = 16
    /// `pause`s before an idle worker's second look: a worker that just pushed the next block of
    /// a chain looks again before a spinning neighbour does, and keeps the chain on its own cache
    /// (README, "Parking (WorkerPool)").
    static let pausesPerLook = 8
    /// The gap doubles after each look, this many times: every look reads the root lists' line,
    /// which a chain's worker writes on each push and pop, so a neighbour that kept looking every
    /// 8 pauses took the line away once every link or two (a chained link 130 ns on two CPUs of
    /// an Intel Xeon VM, 46 ns on one). Later looks come 64 pauses apart.
    static let lookGapDoublings = 3
    static let yieldRounds = 4
    static let retireAfter: Duration = .seconds(1)

    let width: Int
    private(set) var roots: [FIFOQueue] = []
    private var bands: RootBands!
    private(set) var mainRoot: FIFOQueue!
    private let mainConsumerLock = PThreadMutex()

    private let epoch = Futex(0)
    private let mainEpoch = Futex(0)
    private let idle = Atomic<Int>(0)
    private let threads = Atomic<Int>(0)
    private let blocked = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let handlesLock = PThreadMutex()
    private var handles: [PThread] = []
    private var stopped = false

    init(width: Int) {
        self.width = width
        roots = Priority.allCases.map {
            FIFOQueue(label: "fifo-dispatch.root.\($0)", kind: .root, qos: $0, target: nil, pool: self)
        }
        bands = RootBands(roots)
        mainRoot = FIFOQueue(label: "fifo-dispatch.main-root", kind: .mainRoot, qos: .high, target: nil, pool: self)
        for _ in 0..<width { startThread() }
    }

    deinit { bands.deallocate() }

    @usableFromInline
    func root(_ priority: Priority) -> FIFOQueue { roots[priority.rawValue] }

    // MARK: submitting

    @usableFromInline
    func push(_ node: NodeRef, to root: FIFOQueue) {
        bands.push(node, band: max(root.band, node.pointee.priority).rawValue)
        notify()
    }

    /// After a push: wake a parked worker if there is one (sequentially consistent read, see the
    /// type's comment).
    @usableFromInline
    func notify() {
        if idle.load(ordering: .sequentiallyConsistent) > 0 {
            RuntimeEvents.count(.wakeUps)
            epoch.word.pointee.add(1, ordering: .sequentiallyConsistent)
            epoch.wake(1)
        }
    }

    // MARK: workers

    private var hasWork: Bool { bands.hasWork }

    private func startThread() {
        threads.add(1, ordering: .sequentiallyConsistent)
        let thread = PThread.spawn { [unowned(unsafe) self] in self.work() }
        handlesLock.withLock { handles.append(thread) }
    }

    private func work() {
        rb_fifo_set_worker(Unmanaged.passUnretained(self).toOpaque())
        defer { rb_fifo_set_worker(nil) }
        NodeCache.holdReturnsOnThisThread()
        var collisions = 0
        while true {
            switch bands.takeNext() {
            case .node(let node):
                collisions = 0
                _ = Executor.execute(node, within: nil)
                DrainFrame.setCurrent(nil)
                continue
            case .contended:
                // Another worker is popping: a few instructions, unless the OS preempted it there.
                collisions += 1
                if collisions < Self.spinRounds { rb_spin_pause() } else { sched_yield() }
                continue
            case .empty:
                collisions = 0
            }
            if spinForWork() { continue }
            if stopping.load(ordering: .sequentiallyConsistent), !hasWork { return }
            NodeCache.sendHeldBlocks()  // before going idle: their submitter may be waiting for none
            let seen = epoch.word.pointee.load(ordering: .sequentiallyConsistent)
            idle.add(1, ordering: .sequentiallyConsistent)
            if hasWork || stopping.load(ordering: .sequentiallyConsistent) {
                idle.subtract(1, ordering: .sequentiallyConsistent)
                continue
            }
            let surplus = threads.load(ordering: .relaxed) > width
            RuntimeEvents.count(.parks)
            let woken = epoch.wait(expected: seen, until: surplus ? .after(Self.retireAfter) : .never)
            idle.subtract(1, ordering: .sequentiallyConsistent)
            if !woken, retireIfSurplus() { return }
        }
    }

    /// True once a look finds more than one block waiting, or a single block that was also there
    /// a look earlier: work that the worker which pushed it is not about to take. The next link of
    /// a chain is taken by the worker that pushed it as soon as its block returns; an idle
    /// neighbour that competed for a lone block at first sight moved the chain between the two
    /// caches (README, "Parking (WorkerPool)").
    private func spinForWork() -> Bool {
        var seen = false
        for round in 0..<(Self.spinRounds + Self.yieldRounds) {
            if hasWork {
                if seen || bands.hasSeveral { return true }
                seen = true
            } else {
                seen = false
            }
            if round < Self.spinRounds {
                for _ in 0..<(Self.pausesPerLook << min(round, Self.lookGapDoublings)) { rb_spin_pause() }
            } else {
                sched_yield()
            }
        }
        return seen
    }

    /// Ends this thread if the pool has more running threads than its width.
    private func retireIfSurplus() -> Bool {
        var count = threads.load(ordering: .relaxed)
        while count - blocked.load(ordering: .relaxed) > width {
            let (done, current) = threads.compareExchange(expected: count, desired: count - 1, ordering: .sequentiallyConsistent)
            if done { return true }
            count = current
        }
        return false
    }

    // MARK: blocking inside a block

    /// Called before a thread blocks in one of this backend's waits. Returns true when the thread
    /// is one of this pool's workers (then `didUnblock` must follow).
    @usableFromInline
    func willBlock() -> Bool {
        guard let current = rb_fifo_worker(), current == Unmanaged.passUnretained(self).toOpaque() else { return false }
        let nowBlocked = blocked.add(1, ordering: .sequentiallyConsistent).newValue
        if idle.load(ordering: .sequentiallyConsistent) > 0 {
            notify()
        } else if threads.load(ordering: .relaxed) - nowBlocked < width,
            threads.load(ordering: .relaxed) < width + Self.maximumSpares,
            !stopping.load(ordering: .relaxed)
        {
            RuntimeEvents.count(.spareWorkers)
            startThread()
        }
        return true
    }

    @usableFromInline
    func didUnblock() {
        blocked.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Runs `wait`, a wait that may block the calling thread, between `willBlock` and `didUnblock`.
    func whileBlocking<T>(_ wait: () -> T) -> T {
        let blocking = willBlock()
        defer { if blocking { didUnblock() } }
        return wait()
    }

    /// The pool's counters and which roots hold work, for diagnosing a stuck run.
    var debugState: String {
        let nonEmpty = roots.filter { !$0.list.isEmpty }.map(\.label)
        return "threads \(threads.load(ordering: .relaxed)) idle \(idle.load(ordering: .relaxed)) blocked \(blocked.load(ordering: .relaxed)) epoch \(epoch.word.pointee.load(ordering: .relaxed)) roots with work: \(nonEmpty)"
    }

    /// Threads alive now (workers and spares), for tests.
    var threadCount: Int { threads.load(ordering: .relaxed) }

    /// CPU time used so far by the pool's threads (tests: an idle pool must use almost none).
    func workerCPUTime() -> Duration {
        handlesLock.withLock { handles }.reduce(.zero) { total, thread in
            var clock = clockid_t()
            var spec = timespec()
            guard pthread_getcpuclockid(thread.handle, &clock) == 0, clock_gettime(clock, &spec) == 0 else { return total }
            return total + .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        }
    }

    // MARK: the main queue

    @usableFromInline
    func mainQueueHasWork() {
        mainEpoch.word.pointee.add(1, ordering: .sequentiallyConsistent)
        mainEpoch.wakeAll()
    }

    /// Runs the main queue's blocks on the calling thread until `deadline`.
    func drainMainQueue(until deadline: Deadline) {
        while true {
            while true {
                mainConsumerLock.lock()
                let node = mainRoot.list.pop()
                mainConsumerLock.unlock()
                guard let node else { break }
                _ = Executor.execute(node, within: nil)
                DrainFrame.setCurrent(nil)
            }
            if deadline.hasPassed { return }
            let seen = mainEpoch.word.pointee.load(ordering: .sequentiallyConsistent)
            if !mainRoot.list.isEmpty { continue }
            if !mainEpoch.wait(expected: seen, until: deadline) { return }
        }
    }

    // MARK: shutdown

    /// Lets the workers finish every queued block (blocks may submit more), then joins them.
    func shutdown() {
        precondition(
            rb_fifo_worker() != Unmanaged.passUnretained(self).toOpaque(),
            "shutdown() called from one of the pool's own workers: it would wait for itself")
        let first = handlesLock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        stopping.store(true, ordering: .sequentiallyConsistent)
        while true {
            epoch.word.pointee.add(1, ordering: .sequentiallyConsistent)
            epoch.wakeAll()
            let batch = handlesLock.withLock { () -> [PThread] in
                defer { handles.removeAll() }
                return handles
            }
            if batch.isEmpty { break }
            for thread in batch { thread.join() }
        }
    }
}

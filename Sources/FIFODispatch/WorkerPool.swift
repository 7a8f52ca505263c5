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
/// Parking loses no wake-up: a worker about to sleep reads the epoch, announces itself parked in
/// `resting`, looks at every root once more, and only then sleeps on the epoch; a submitter
/// pushes, then reads `resting`, and if anyone is parked advances the epoch and wakes one. Both
/// sides write, then read the other's word, all sequentially consistent, so at least one sees the
/// other (README). A worker whose search found another worker taking lone blocks as they came
/// naps instead: a bounded sleep that a lone block's push does not interrupt (README, "Naps").
///
/// A worker that blocks on one of this backend's semaphores, groups or a `sync` tells the pool
/// (`willBlock`); if no worker is idle to take its place, a spare starts at once (at most
/// `maximumSpares` beyond the width). A worker that blocks where the pool cannot see (a sleep, a
/// plain pthread condition, a read) is found by the `StallMonitor`, which adds a thread when work
/// waits and too few workers are runnable. Surplus threads retire after a second idle.
@usableFromInline
final class WorkerPool: StallWatchedPool, @unchecked Sendable {
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
    /// 8 pauses would take the line away once every link or two (README, "Parking (WorkerPool)").
    /// Later looks come 64 pauses apart.
    static let lookGapDoublings = 3
    static let yieldRounds = 4
    /// After those rounds the only searcher, if none of its yields ran another thread, searches on
    /// slowly for this long by the clock, a look every `slowLookPauses` pauses and a yield every
    /// `slowLooksPerYield` looks, and stops at a yield that ran another thread: a block that left
    /// the pool (a job on another runtime's threads) comes back without waking a parked worker on
    /// the other vCPU, 20–30 µs on these VMs (README, "Searching slowly"; `SlowSearch`).
    static let slowSearchNanoseconds: Int64 = 40_000
    static let slowLookPauses = 64
    static let slowLooksPerYield = 4
    /// Looks, out of one search, that must find the roots popped since the look before (by another
    /// worker: this one took nothing) before the searcher naps instead of searching on.
    static let chainSightings = 8
    /// The first nap; each nap in a row doubles it, this many times (50 µs to 800 µs). A nap
    /// bounds how long a block can wait when its pusher, instead of taking it, blocks where the
    /// pool cannot see (README, "Naps").
    static var firstNap: Duration { .microseconds(50) }
    static let napDoublings = 4
    static var retireAfter: Duration { .seconds(1) }

    /// How long a contended `sync` polls for a queue to fall idle before it waits in line, learnt
    /// from the syncs of every queue on this pool (FIFOQueue+Sync.swift). One for all queues: a
    /// budget in each queue made every queue 16 bytes larger, and tasks from outside the pool 15%
    /// slower (`bench ab`).
    let syncPolls = SpinBudget(for: .lock)

    let width: Int
    private(set) var roots: [FIFOQueue] = []
    private var bands: RootBands!
    private(set) var mainRoot: FIFOQueue!
    private let mainConsumerLock = PThreadMutex()

    private let epoch = Futex(0)
    private let mainEpoch = Futex(0)
    /// Workers parked (the low half) and napping (the high half, in units of `napper`): one word,
    /// so a submitter learns both from one load.
    private let resting = Atomic<Int>(0)
    private static let napper = 1 << 32
    private static let parkedMask = napper - 1
    /// Workers searching the roots now: only a lone searcher searches slowly, so the other CPU
    /// stays free for the threads outside the pool that the searcher waits for. A hint, read and
    /// written relaxed: a stale count lengthens or shortens one search, and whether a block can be
    /// left behind is decided by parking's final look, not by it.
    private let searching = Atomic<Int>(0)
    private let threads = Atomic<Int>(0)
    private let blocked = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let handlesLock = PThreadMutex()
    private var handles: [PThread] = []
    private var stopped = false
    private var monitor: StallMonitor!
    /// The pool as a Swift task executor (`FIFODispatch.makeTaskExecutor`); one object, since
    /// Swift compares executors by identity.
    private(set) var taskExecutor: FIFOTaskExecutor!
    /// The same, as a queue's job names it (a trivial value: no retain per job).
    private(set) var unownedTaskExecutor: UnownedTaskExecutor!

    init(width: Int) {
        self.width = width
        roots = Priority.allCases.map {
            FIFOQueue(label: "fifo-dispatch.root.\($0)", kind: .root, qos: $0, target: nil, pool: self)
        }
        bands = RootBands(roots)
        mainRoot = FIFOQueue(label: "fifo-dispatch.main-root", kind: .mainRoot, qos: .high, target: nil, pool: self)
        monitor = StallMonitor(watching: self, width: width, name: "fifo-monitor")
        taskExecutor = FIFOTaskExecutor(pool: self)
        unownedTaskExecutor = taskExecutor.asUnownedTaskExecutor()
        for _ in 0..<width { startThread() }
    }

    deinit { bands.deallocate() }

    @usableFromInline
    func root(_ priority: Priority) -> FIFOQueue { roots[priority.rawValue] }

    // MARK: submitting

    @usableFromInline
    func push(_ node: NodeRef, to root: FIFOQueue) {
        let wasEmpty = bands.push(node, band: max(root.band, node.pointee.priority).rawValue)
        notify(pushedOntoEmpty: wasEmpty)
    }

    /// After a push: wake a parked worker if there is one (sequentially consistent read, see the
    /// type's comment), or a napping one when the push left more than one block waiting. A lone
    /// block does not wake a napper: while one naps, another worker is taking lone blocks as
    /// they come, and the nap's end bounds the wait otherwise (README, "Naps").
    @usableFromInline
    func notify(pushedOntoEmpty: Bool = false) {
        let resting = resting.load(ordering: .sequentiallyConsistent)
        if resting & Self.parkedMask != 0 || (resting != 0 && !pushedOntoEmpty) {
            RuntimeEvents.count(.wakeUps)
            epoch.word.pointee.add(1, ordering: .sequentiallyConsistent)
            epoch.wake(1)
        }
    }

    // MARK: workers

    var hasWork: Bool { bands.hasWork }

    private func startThread() {
        threads.add(1, ordering: .sequentiallyConsistent)
        let thread = PThread.spawn(name: "fifo-dispatch") { [unowned(unsafe) self] in self.work() }
        handlesLock.withLock { handles.append(thread) }
    }

    private func work() {
        rb_fifo_set_worker(Unmanaged.passUnretained(self).toOpaque())
        monitor.registerCurrentThread()
        defer {
            monitor.unregisterCurrentThread()
            rb_fifo_set_worker(nil)
        }
        NodeCache.holdReturnsOnThisThread()
        HandOff.takeWorkerSlot()
        defer { HandOff.releaseWorkerSlot() }
        var collisions = 0
        var napsInARow = 0
        while true {
            switch bands.takeNext() {
            case .node(let node):
                collisions = 0
                napsInARow = 0
                HandOff.beganRootNode()
                _ = Executor.execute(node, within: nil)
                DrainFrame.setCurrent(nil)
                HandOff.runPending()
                continue
            case .contended:
                // Another worker is popping: a few instructions, unless the OS preempted it there.
                collisions += 1
                if collisions < Self.spinRounds { rb_spin_pause() } else { RuntimeEvents.yieldCPU() }
                continue
            case .empty:
                collisions = 0
            }
            searching.add(1, ordering: .relaxed)
            let found = search()
            searching.subtract(1, ordering: .relaxed)
            switch found {
            case .work:
                continue
            case .chain:
                nap(for: Self.firstNap * (1 << min(napsInARow, Self.napDoublings)))
                napsInARow += 1
                continue
            case .nothing:
                napsInARow = 0
            }
            if stopping.load(ordering: .sequentiallyConsistent), !hasWork { return }
            NodeCache.sendHeldBlocks()  // before going idle: their submitter may be waiting for none
            let seen = epoch.word.pointee.load(ordering: .sequentiallyConsistent)
            resting.add(1, ordering: .sequentiallyConsistent)
            if hasWork || stopping.load(ordering: .sequentiallyConsistent) {
                resting.subtract(1, ordering: .sequentiallyConsistent)
                continue
            }
            let surplus = threads.load(ordering: .relaxed) > width
            RuntimeEvents.count(.parks)
            let woken = epoch.wait(expected: seen, until: surplus ? .after(Self.retireAfter) : .never)
            resting.subtract(1, ordering: .sequentiallyConsistent)
            if !woken, retireIfSurplus() {
                detachFromHandles()
                return
            }
        }
    }

    /// A retiring thread is not joined while the pool runs: it takes its handle off the list and
    /// detaches, so it is freed when it ends, and a process that exits without `shutdown` (a
    /// `dispatchMain` program calling exit) holds no ended, unjoined thread, which
    /// ThreadSanitizer reports as a leak. When `shutdown` has already taken the list, it joins
    /// the thread instead; the lock decides which.
    private func detachFromHandles() {
        let me = pthread_self()
        handlesLock.withLock {
            guard let index = handles.firstIndex(where: { pthread_equal($0.handle, me) != 0 }) else { return }
            handles.remove(at: index).detach()
        }
    }

    /// What an idle worker's search found.
    private enum Search {
        /// A block to take: several waiting, or a lone one that waited from one look to the next.
        case work
        /// No block that waited, while another worker popped between enough of the looks: blocks
        /// come one at a time and that worker takes each soon after it is pushed, as a chain's
        /// worker takes every link itself. Searching on would only take the lists' line from it.
        case chain
        /// Nothing waiting, or nothing that needs this worker.
        case nothing
    }

    /// Looks at the roots `spinRounds` times with growing gaps, then `yieldRounds` times between
    /// yields, then, if it is the only searcher and no yield ran another thread, slowly for
    /// `slowSearchNanoseconds`. A lone block is taken only when the next look still finds it with
    /// no pop in between: the next link of a chain is taken by the worker that pushed it as soon
    /// as its block returns, and an idle neighbour that competed for it moved the chain between
    /// the two caches (README, "Parking (WorkerPool)").
    private func search() -> Search {
        var previous: RootBands.Sighting?
        var consumed = 0
        var cpuWanted = false
        func look() -> Bool {
            let sighting = bands.sighting
            defer {
                if let previous, previous.pops != sighting.pops { consumed += 1 }
                previous = sighting
            }
            switch sighting.work {
            case .several: return true
            case .one: return previous.map { $0.work == .one && $0.pops == sighting.pops } ?? false
            case .none: return false
            }
        }
        for round in 0..<(Self.spinRounds + Self.yieldRounds) {
            if look() { return .work }
            if round < Self.spinRounds {
                for _ in 0..<(Self.pausesPerLook << min(round, Self.lookGapDoublings)) { rb_spin_pause() }
            } else if RuntimeEvents.yieldCPULent() {
                cpuWanted = true
            }
        }
        if consumed >= Self.chainSightings { return .chain }
        if !cpuWanted, searching.load(ordering: .relaxed) == 1,
            SlowSearch.run(
                for: Self.slowSearchNanoseconds, pausesPerLook: Self.slowLookPauses,
                looksPerYield: Self.slowLooksPerYield, look)
        {
            return .work
        }
        return previous?.work == .one ? .work : .nothing
    }

    /// Sleeps until `length` passes, a wake-up comes or the pool stops, without counting itself
    /// parked: a push of a lone block does not wake it, which is the point (each push of a chain
    /// woke the parked neighbour, or kept it searching). A push that leaves more than one block
    /// waiting does wake it; whatever else comes waits at most `length` (README, "Naps").
    private func nap(for length: Duration) {
        NodeCache.sendHeldBlocks()  // as before parking: a nap may last
        let seen = epoch.word.pointee.load(ordering: .sequentiallyConsistent)
        resting.add(Self.napper, ordering: .sequentiallyConsistent)
        if !bands.hasSeveral, !stopping.load(ordering: .sequentiallyConsistent) {
            RuntimeEvents.count(.naps)
            _ = epoch.wait(expected: seen, until: .after(length))
        }
        resting.subtract(Self.napper, ordering: .sequentiallyConsistent)
    }

    /// Ends this thread if the pool has more running threads than its width.
    private func retireIfSurplus() -> Bool {
        var count = threads.load(ordering: .relaxed)
        while count - blocked.load(ordering: .relaxed) > width {
            let (done, current) = threads.compareExchange(
                expected: count, desired: count - 1, ordering: .sequentiallyConsistent)
            if done { return true }
            count = current
        }
        return false
    }

    // MARK: blocking where the pool cannot see

    @usableFromInline var hasWaitingWork: Bool { bands.hasWork }
    @usableFromInline var progress: UInt { bands.sighting.pops }
    @usableFromInline var hasIdleWorker: Bool { resting.load(ordering: .relaxed) != 0 }

    @usableFromInline func addStallThread() -> Bool {
        guard threads.load(ordering: .relaxed) < width + Self.maximumSpares else { return false }
        RuntimeEvents.count(.spareWorkers)
        startThread()
        return true
    }

    // MARK: blocking inside a block

    /// Called before a thread blocks in one of this backend's waits. Returns true when the thread
    /// is one of this pool's workers (then `didUnblock` must follow).
    @usableFromInline
    func willBlock() -> Bool {
        guard let current = rb_fifo_worker(), current == Unmanaged.passUnretained(self).toOpaque() else { return false }
        let nowBlocked = blocked.add(1, ordering: .sequentiallyConsistent).newValue
        if resting.load(ordering: .sequentiallyConsistent) != 0 {
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
        return "threads \(threads.load(ordering: .relaxed)) parked "
            + "\(resting.load(ordering: .relaxed) & Self.parkedMask) napping \(nappingWorkers) blocked "
            + "\(blocked.load(ordering: .relaxed)) epoch \(epoch.word.pointee.load(ordering: .relaxed)) roots "
            + "with work: \(nonEmpty)"
    }

    /// Workers napping now, for tests.
    var nappingWorkers: Int { resting.load(ordering: .relaxed) / Self.napper }

    /// Threads alive now (workers and spares), for tests.
    var threadCount: Int { threads.load(ordering: .relaxed) }

    /// CPU time used so far by the pool's threads (tests: an idle pool must use almost none).
    func workerCPUTime() -> Duration {
        handlesLock.withLock { handles }.reduce(.zero) { total, thread in
            var clock = clockid_t()
            var spec = timespec()
            guard pthread_getcpuclockid(thread.handle, &clock) == 0, clock_gettime(clock, &spec) == 0 else {
                return total
            }
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
        // The monitor keeps watching while the workers finish: a block blocked where the pool
        // cannot see may wait for one still queued. Once every worker is gone it stops, and any
        // thread it added meanwhile is joined in the second round.
        joinWorkers()
        monitor.stop()
        joinWorkers()
    }

    private func joinWorkers() {
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

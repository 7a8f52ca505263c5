import CSpinHint
#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// Backend `work-stealing`: one Chase–Lev deque per worker (LIFO for the owner, FIFO for
/// thieves), an injector for submissions from outside the pool, random-victim batch steals, at
/// most half the workers (or two) searching, and parking that loses no wake-up. A block
/// submitted from a worker goes to that worker's own deque: no lock, and the next block it runs
/// is the freshest one, still in cache. Beyond the protocol: fork-join `join`
/// (StealingRuntime+Join.swift).
public final class StealingRuntime: ConcurrencyRuntime, @unchecked Sendable {
    public typealias Queue = Strand
    public typealias Semaphore = StealingSemaphore
    public typealias Group = StealingGroup

    public static let id = "work-stealing"
    public static let summary =
        "our work-stealing pool: per-worker Chase–Lev deques, an injector, batch steals, parking; fork-join join"
    public static let unsupported: [RuntimeBehaviour: String] = [:]

    /// Rounds of stealing attempts before a worker helping a join yields (`help`).
    static let helpRoundsBeforeYield = 32
    /// Looks before a searching worker yields, `pausesPerLook` pauses apart, then looks with a
    /// yield before it parks: short, so an idle pool goes quiet within microseconds, long enough
    /// to catch work that is about to appear in a fork-join burst without a futex round trip.
    /// Apart, because every look reads the injector's line, which a submitter outside the pool
    /// writes with each push: with 32 looks back to back, group fan-out's workers failed 2.8
    /// steals a task and each push paid for the line's return (README.md, "Parking and searching").
    static let quickLooks = 12
    static let pausesPerLook = 8
    static let yieldRounds = 4
    /// After those, a slower search while this CPU has nothing else to run: a look every
    /// `slowLookPauses` pauses, a yield every `slowLooksPerYield` looks, for
    /// `slowSearchNanoseconds` in all, ended by the first yield that ran another thread. A worker
    /// still looking when the thread it just served comes back with the next job saves that job a
    /// wake-up of a halted vCPU (tens of µs here); one that kept looking while another thread
    /// wanted its CPU took that CPU from submitters (README.md, "Searching slowly"; `SlowSearch`).
    static let slowSearchNanoseconds: Int64 = 40_000
    static let slowLookPauses = 16
    static let slowLooksPerYield = 4

    public let workers: Int
    /// Whether `join` always makes its right half stealable (`.eager`, the default) or only while
    /// the worker offers little (`.lazy`).
    public let joinSplitting: JoinSplitting
    @usableFromInline
    let lazySplitThreshold: Int  // Int.max when eager: one comparison on the join path either way
    @usableFromInline
    let pool: [Worker]
    /// The workers' deques, unretained (the workers keep them), for thieves: `pool[victim].deque`
    /// retained and released the victim on every look, a write to the line of a worker another
    /// thread is using, from every searching thread.
    let victims: [Unmanaged<WorkDeque>]
    /// What a worker's `pool` is compared with (CurrentWorker): the identity of an object only
    /// this runtime holds, so it is unique while the runtime lives.
    private let poolToken = PoolToken()
    @usableFromInline
    let poolIdentity: ObjectIdentifier
    private final class PoolToken {}
    let injector = Injector()
    @usableFromInline
    let sleepers: Sleepers
    private let stopping = Atomic<Bool>(false)
    private let shutdownState = Mutex<ShutdownState>(.running)
    private var threads: [PThread] = []
    /// Adds stall threads when every worker blocks where the pool cannot see (StealingRuntime+Stalls).
    var monitor: StallMonitor!
    /// Guards `stallThreads` and `standIns` (a pthread mutex: ThreadSanitizer cannot see
    /// Synchronization's, and stall threads are made and read on many threads).
    let stallLock = PThreadMutex()
    var stallThreads: [StallThread] = []
    /// The workers stall threads run as (outside `pool`; StealingRuntime+Stalls).
    var standIns: [Worker] = []

    private enum ShutdownState { case running, stopped }

    public convenience init(workers: Int) {
        self.init(workers: workers, joinSplitting: .eager)
    }

    public init(workers: Int, joinSplitting: JoinSplitting) {
        if case .lazy(let threshold) = joinSplitting {
            precondition(threshold >= 1, "JoinSplitting.lazy(threshold: \(threshold)): keep at least one job stealable")
            lazySplitThreshold = threshold
        } else {
            lazySplitThreshold = .max
        }
        self.joinSplitting = joinSplitting
        self.workers = resolvedWorkerCount(workers)
        let identity = ObjectIdentifier(poolToken)
        poolIdentity = identity
        pool = (0..<self.workers).map { Worker(index: $0, pool: identity) }
        victims = pool.map { .passUnretained($0.deque) }
        sleepers = Sleepers(workers: self.workers)
        monitor = StallMonitor(watching: self, width: self.workers, name: "stealing-monitor")
        // Strong capture: a runtime never shut down leaks its threads instead of freeing under them.
        threads = pool.map { worker in PThread.spawn(name: Self.id) { self.run(worker) } }
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        submit(HeapJob.make(work))
    }

    /// The job holds the block's function and context, not its closure: submitting the closure
    /// would retain its shared context per job and release it on the worker, the count's line
    /// moving between the CPUs (README.md, "Jobs").
    public func async(_ block: FunctionBlock) {
        submit(HeapJob.make(block))
    }

    /// `dispatch_group_async_f`: the job holds the function, its context and the group, with
    /// nothing allocated or retained for the block (the group holds itself, `GroupWord`).
    public func async(group: StealingGroup, _ block: FunctionBlock) {
        group.enterForBlock()
        submit(HeapJob.make(block, group: group))
    }

    /// `dispatch_group_async`: the job holds the closure and the group, so no closure is boxed
    /// around the block to leave the group, and the group is not retained (`GroupWord`).
    public func async(group: StealingGroup, _ work: @escaping @Sendable () -> Void) {
        group.enterForBlock()
        submit(HeapJob.make(work, group: group))
    }

    public func makeSerialQueue(label: String) -> Strand {
        Strand(
            label: label, submitDrain: { [self] drain in async(drain) },
            beforeBlocking: { [self] in publishBeforeBlocking() })
    }

    public func makeSemaphore(value: Int) -> StealingSemaphore { StealingSemaphore(value: value, runtime: self) }

    public func makeGroup() -> StealingGroup { StealingGroup(runtime: self) }

    /// Runs what was submitted (workers keep going until every queue is empty), then joins them.
    public func shutdown() {
        let first = shutdownState.withLock { state -> Bool in
            defer { state = .stopped }
            return state == .running
        }
        guard first else { return }
        precondition(
            CurrentWorker.of(self) == nil,
            "shutdown() called from a \(Self.id) worker: it would wait for itself to exit")
        stopping.store(true, ordering: .releasing)
        sleepers.notifyAll()
        for thread in threads { thread.join() }
        // The monitor watched until the workers were gone (a block blocked where the pool cannot
        // see may have waited for one still queued); then no stall thread is added any more.
        monitor.stop()
        joinStallThreads()
        // An outside thread may have submitted after the last worker saw every queue empty.
        while let job = injector.pop() { job.run() }
    }

    /// CPU time the worker threads have used so far (each thread's own CPU clock), so an idle
    /// pool's cost can be measured apart from whatever else the process does.
    public func workerCPUTime() -> Duration {
        threads.reduce(.zero) { total, thread in
            var clock = clockid_t()
            var spec = timespec()
            guard pthread_getcpuclockid(thread.handle, &clock) == 0, clock_gettime(clock, &spec) == 0 else {
                return total
            }
            return total + .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        }
    }

    /// From a worker: its own deque. From anywhere else: the injector, and wake a sleeper.
    /// The worker is borrowed, not retained: a retain and a release per block would be a cost of
    /// their own on every link of a chain of tasks, even on one CPU (Benchmarks/README.md, "What
    /// the references found").
    func submit(_ job: JobRef) {
        if let worker = CurrentWorker.unmanaged(of: self) {
            worker._withUnsafeGuaranteedRef { pushLocal(job, on: $0) }
        } else {
            inject(job)
        }
    }

    /// The injector, with the fence that makes the wake-up impossible to lose (README.md, "Parking
    /// and searching (Sleepers)").
    func inject(_ job: JobRef) {
        injector.push(submitted: job.heapJob)
        sleepers.notifyOneAfterOrderedPush()
    }

    /// Injects an apply's helper job. The loop's caller claims pieces itself and can finish them
    /// all alone, so the helper is an offer, not a need: its wake-up may wait a few hundred
    /// nanoseconds for a worker that is just coming back from a job (the last loop's helper) to
    /// start searching, and then costs no futex call and no third thread on two CPUs.
    func injectHelper(_ job: JobRef) {
        injector.push(submitted: job.heapJob)
        sleepers.notifyOne(afterGrace: Self.helperWakeGrace) { injector.isEmpty }
    }

    /// `pause`s an apply's caller waits for an awake worker before waking a sleeper for its helper
    /// (0.4 µs at 13.5 ns a pause, 0.8 µs at 25): longer than a worker takes from finishing a
    /// loop's last piece to searching, short next to a loop worth running in parallel.
    static let helperWakeGrace = 32

    /// Pushes onto the calling worker's own deque (spilling half first if it is full). An `async`
    /// block wakes a sleeper only when the deque already held work: a lone block is the next thing
    /// this worker runs itself, and waking a thread for it would cost a futex call per link of a
    /// chain of tasks that each submit one (README.md, "Who wakes whom"). A join's half is always
    /// offered (`offered`): making it stealable is the point of the join. Always inlined: left to
    /// the optimizer it stays a call in every join, which an eager join is cheap enough to feel.
    @inlinable @inline(__always)
    func pushLocal(_ job: JobRef, on worker: Worker, offered: Bool = false) {
        guard let surplus = worker.deque.pushReportingSurplus(job) else {
            spillHalf(of: worker)
            _ = worker.deque.push(job)
            return
        }
        if surplus || offered { sleepers.notifyIfIdle() }
    }

    /// A worker about to block (semaphore or group wait with nothing to help with): whatever it
    /// left in its own deque must not wait for it, so wake a sleeper, with the fence that makes the
    /// wake-up certain (README.md, "Waiting inside the pool"). A stall thread's stand-in moves its
    /// whole deque to the injector first: workers never steal from a stand-in, and while one of
    /// them is idle the stall monitor adds no other stand-in that would.
    func publishBeforeBlocking() {
        guard let worker = CurrentWorker.of(self), worker.deque.count > 0 else { return }
        if isStandIn(worker) { moveOldestToInjector(worker.deque.count, of: worker) }
        sleepers.notifyOne()
    }

    /// A full deque moves its older half to the injector, where any worker can find it.
    @usableFromInline
    func spillHalf(of worker: Worker) {
        moveOldestToInjector(worker.deque.count / 2, of: worker)
        sleepers.notifyOne()
    }

    /// Moves up to `count` of `worker`'s oldest jobs to the injector, oldest first, as thieves
    /// would take them; its owner calls this. A steal that comes back empty lost a race to a
    /// thief, which took that job: it looks again while any is left (only the owner pushes).
    func moveOldestToInjector(_ count: Int, of worker: Worker) {
        var moved: [JobRef] = []
        while moved.count < count, worker.deque.count > 0 {
            if let job = worker.deque.steal() { moved.append(job) }
        }
        injector.push(contentsOf: moved)
    }

    private func run(_ worker: Worker) {
        CurrentWorker.set(worker)
        BlockCache<HeapJob>.holdReturnsOnThisThread()
        monitor.registerCurrentThread()
        defer {
            monitor.unregisterCurrentThread()
            CurrentWorker.clear()
        }
        while true {
            if let job = worker.deque.pop() ?? search(for: worker) {
                job.run()
                worker.publishEvents()
                continue
            }
            // Stopping, and nothing found: leave. Only this worker pushes to its own deque, so it
            // is empty for good; blocks still running elsewhere keep their own workers alive, and
            // shutdown() drains what outside threads put in the injector after the last worker left.
            if stopping.load(ordering: .acquiring) { return }
            park(worker)?.run()
        }
    }

    /// One look at the injector and every other worker's deque, stealing a batch where there is
    /// one. The caller's own deque must be empty (a batch lands there).
    @usableFromInline
    func stealOnce(for worker: Worker) -> JobRef? {
        #if FaultInjection
        InjectedFaults.delaySteal()
        #endif
        if let job = injector.popBatch(into: worker.deque) {
            RuntimeEvents.count(.injectorBatches)
            if worker.deque.count > 0 { sleepers.notifyOne() }  // the batch is surplus: fenced, see below
            return job
        }
        guard pool.count > 1 else {
            RuntimeEvents.count(.failedSteals)
            return nil
        }
        // Start at a random victim so thieves spread out; visit everyone once.
        let start = worker.randomVictim(among: pool.count)
        for step in 0..<pool.count {
            let victim = (start + step) % pool.count
            guard victim != worker.index,
                let job = victims[victim]._withUnsafeGuaranteedRef({ $0.stealBatch(into: worker.deque) })
            else { continue }
            RuntimeEvents.count(.steals)
            RuntimeEvents.count(.stolenJobs, 1 + worker.deque.count)
            // The batch gave us surplus: let an idle worker come and take some of it. Fenced
            // (`notifyOne`), unlike a worker's own surplus push: the job this worker runs next
            // may block in code the runtime cannot see (a foreign lock or semaphore) until one of
            // the batch runs, and nobody else knows the batch is here (README.md, "Who wakes whom").
            if worker.deque.count > 0 { sleepers.notifyOne() }
            return job
        }
        RuntimeEvents.count(.failedSteals)
        return nil
    }

    /// One look at every other worker's deque for a join's half, for a worker that waits for its
    /// own stolen half. A submitted block found on the way is moved to the injector, where any
    /// worker can run it, instead of run here: on top of the waiting frame it could need what that
    /// frame holds (a `sync` onto a queue the frame is inside) and wait for itself forever
    /// (README.md, "Helping"). The injector is not searched, for the same reason.
    @usableFromInline
    func stealJoinHalf(for worker: Worker) -> JobRef? {
        guard pool.count > 1 else { return nil }
        let start = worker.randomVictim(among: pool.count)
        for step in 0..<pool.count {
            let victim = (start + step) % pool.count
            guard victim != worker.index else { continue }
            for _ in 0..<Self.blocksMovedPerVisit {
                guard let job = victims[victim]._withUnsafeGuaranteedRef({ $0.steal() }) else { break }
                guard job.isSubmittedBlock else {
                    RuntimeEvents.count(.steals)
                    RuntimeEvents.count(.stolenJobs)
                    return job
                }
                inject(job)
            }
        }
        RuntimeEvents.count(.failedSteals)
        return nil
    }

    /// Submitted blocks a helping worker moves from one victim to the injector per look.
    static let blocksMovedPerVisit = 8

    /// Spin, then yield, looking for work, if this worker may search (fewer than half of them do,
    /// or fewer than two); nil once it has looked long enough, or at once if it may not search.
    private func search(for worker: Worker) -> JobRef? {
        guard sleepers.startSearching() else { return nil }
        var cpuWanted = false
        for round in 0..<(Self.quickLooks + Self.yieldRounds) {
            if let job = stealOnce(for: worker) { return found(job) }
            if stopping.load(ordering: .relaxed) { break }
            if round < Self.quickLooks {
                for _ in 0..<Self.pausesPerLook { rb_spin_pause() }
            } else if RuntimeEvents.yieldCPULent() {
                cpuWanted = true
            }
        }
        if !cpuWanted, !stopping.load(ordering: .relaxed) {
            var job: JobRef?
            _ = SlowSearch.run(
                for: Self.slowSearchNanoseconds, pausesPerLook: Self.slowLookPauses,
                looksPerYield: Self.slowLooksPerYield
            ) {
                job = stealOnce(for: worker)
                return job != nil || stopping.load(ordering: .relaxed)
            }
            if let job { return found(job) }
        }
        sleepers.stopSearching()  // nothing found: parking's final check looks again, fenced
        return nil
    }

    /// A searcher's find: it stops searching, and if it was the last searcher, wakes another
    /// worker for any work still visible.
    private func found(_ job: JobRef) -> JobRef {
        if sleepers.stopSearching() { sleepers.handOffIfWorkRemains { hasVisibleWork() } }
        return job
    }

    /// Sleep until a submitter wakes us (README.md, "Parking and searching (Sleepers)"). If the
    /// last look finds work, take it instead: a worker that was not allowed to search must not
    /// spin on work it can see.
    private func park(_ worker: Worker) -> JobRef? {
        BlockCache<HeapJob>.sendHeldBlocks()  // before going idle: their submitter may be waiting for none
        let seen = sleepers.prepareToSleep()
        if hasVisibleWork() || stopping.load(ordering: .acquiring) {
            sleepers.cancelSleep()
            let job = stealOnce(for: worker)
            // Like the last searcher: a wake-up a submitter skipped while someone searched may
            // have been meant for work still visible here, and the job just taken may block.
            if job != nil { sleepers.handOffIfWorkRemains { hasVisibleWork() } }
            return job
        }
        sleepers.sleep(ifEpochIs: seen)
        return nil
    }

    /// What a stuck pool looks like, for a test's failure message.
    var debugDescriptionForTests: String {
        "injector empty \(injector.isEmpty), deques \(pool.map { $0.deque.count }), \(sleepers.debugCounts)"
    }

    /// Workers asleep now, for tests.
    var sleepingWorkers: Int { sleepers.sleeping.pointee.load(ordering: .relaxed) }

    func hasVisibleWork() -> Bool {
        !injector.isEmpty || pool.contains { $0.deque.count > 0 }
    }
}

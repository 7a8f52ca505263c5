#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// Backend `work-stealing`: one Chase–Lev deque per worker (LIFO for the owner, FIFO for
/// thieves), an injector for submissions from outside the pool, random-victim stealing, and
/// parking that loses no wake-up. A block submitted from a worker goes to that worker's own
/// deque: no lock, and the next block it runs is the freshest one, still in cache.
public final class StealingRuntime: PoolBackedRuntime, @unchecked Sendable {
    public static let id = "work-stealing"
    public static let summary = "work-stealing pool: per-worker Chase–Lev deques, an injector, random-victim steals, parking"

    /// Rounds of stealing attempts before a worker yields, then before it parks: short, so an
    /// idle pool goes quiet within microseconds, long enough to catch work that is about to appear
    /// in a fork-join burst without a futex round trip.
    static let spinRounds = 32
    static let yieldRounds = 4

    public let workers: Int
    private let pool: [Worker]
    private let injector = Injector()
    private let sleepers = Sleepers()
    private let stopping = Atomic<Bool>(false)
    private let shutdownState = Mutex<ShutdownState>(.running)
    private var threads: [PThread] = []

    private enum ShutdownState { case running, stopped }

    public init(workers: Int) {
        self.workers = resolvedWorkerCount(workers)
        pool = (0..<self.workers).map { Worker(index: $0) }
        // Strong capture: a runtime never shut down leaks its threads instead of freeing under them.
        threads = pool.map { worker in PThread.spawn { self.run(worker) } }
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        submit(StealingJob(work))
    }

    /// Runs what was submitted (workers keep going until every queue is empty), then joins them.
    public func shutdown() {
        let first = shutdownState.withLock { state -> Bool in
            defer { state = .stopped }
            return state == .running
        }
        guard first else { return }
        precondition(CurrentWorker.of(self) == nil, "shutdown() called from a \(Self.id) worker: it would wait for itself to exit")
        stopping.store(true, ordering: .releasing)
        sleepers.notifyAll()
        for thread in threads { thread.join() }
        // An outside thread may have submitted after the last worker saw every queue empty.
        while let job = injector.pop() { job.work() }
    }

    /// CPU time the worker threads have used so far (each thread's own CPU clock), so an idle
    /// pool's cost can be measured apart from whatever else the process does.
    public func workerCPUTime() -> Duration {
        threads.reduce(.zero) { total, thread in
            var clock = clockid_t()
            var spec = timespec()
            guard pthread_getcpuclockid(thread.handle, &clock) == 0, clock_gettime(clock, &spec) == 0 else { return total }
            return total + .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        }
    }

    private func submit(_ job: StealingJob) {
        if let worker = CurrentWorker.of(self) {
            pushLocal(job, on: worker)
        } else {
            injector.push(job)
            sleepers.notifyOne()
        }
    }

    /// Pushes onto the calling worker's own deque (spilling half first if it is full) and wakes a
    /// sleeper to come and steal it.
    func pushLocal(_ job: StealingJob, on worker: Worker) {
        if !worker.deque.push(job) {
            spillHalf(of: worker)
            _ = worker.deque.push(job)
        }
        sleepers.notifyOne()
    }

    /// The injector, then every other worker's deque once: a joiner's way to help.
    func stealAny(for worker: Worker) -> StealingJob? {
        injector.pop() ?? stealFromOthers(worker)
    }

    /// A full deque moves its older half to the injector, where any worker can find it.
    private func spillHalf(of worker: Worker) {
        var spilled: [StealingJob] = []
        for _ in 0..<(worker.deque.count / 2) {
            guard let job = worker.deque.steal() else { break }  // oldest first, as thieves would take them
            spilled.append(job)
        }
        injector.push(contentsOf: spilled)
    }

    private func run(_ worker: Worker) {
        CurrentWorker.set(worker, of: self)
        defer { CurrentWorker.clear() }
        while true {
            if let job = findJob(for: worker) {
                job.work()
                continue
            }
            // Stopping, and nothing found: leave. Only this worker pushes to its own deque, so it
            // is empty for good; blocks still running elsewhere keep their own workers alive, and
            // shutdown() drains what outside threads put in the injector after the last worker left.
            if stopping.load(ordering: .acquiring) { return }
            park(worker)
        }
    }

    private func findJob(for worker: Worker) -> StealingJob? {
        if let job = worker.deque.pop() { return job }
        if let job = injector.pop() { return job }
        return stealFromOthers(worker)
    }

    private func stealFromOthers(_ worker: Worker) -> StealingJob? {
        guard pool.count > 1 else { return nil }
        // Start at a random victim so thieves spread out; visit everyone once.
        let start = worker.randomVictim(among: pool.count)
        for step in 0..<pool.count {
            let victim = (start + step) % pool.count
            if victim != worker.index, let job = pool[victim].deque.steal() { return job }
        }
        return nil
    }

    /// Spin, then yield, then sleep until a submitter wakes us (README.md, "Parking").
    private func park(_ worker: Worker) {
        for round in 0..<(Self.spinRounds + Self.yieldRounds) {
            if hasVisibleWork(for: worker) || stopping.load(ordering: .relaxed) { return }
            if round >= Self.spinRounds { sched_yield() }
        }
        let seen = sleepers.prepareToSleep()
        if hasVisibleWork(for: worker) || stopping.load(ordering: .acquiring) {
            sleepers.cancelSleep()
            return
        }
        sleepers.sleep(ifEpochIs: seen)
    }

    private func hasVisibleWork(for worker: Worker) -> Bool {
        !injector.isEmpty || pool.contains { $0.deque.count > 0 }
    }
}

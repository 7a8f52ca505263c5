import DequeModule
import PThreadPrimitives
import RuntimeKit

/// Backend `pthread-mutex`: the baseline every other backend is measured against. Worker threads
/// from `pthread_create` share one FIFO of blocks guarded by a single `pthread_mutex_t`, and sleep
/// on one `pthread_cond_t` when it is empty. Serial queues are strands on this pool; semaphores
/// and groups are mutex + condition variable. Every submission takes the one lock, which is the
/// point: it shows what a global lock costs once threads contend for it.
///
/// Its waits are plain mutex and condition waits the pool does not hear of, so when every worker
/// blocks while blocks are queued, the `StallMonitor` adds a thread (as libdispatch's monitor
/// does); a thread beyond `workers` retires after `retireAfter` without work.
public final class PThreadRuntime: PoolBackedRuntime, StallWatchedPool, @unchecked Sendable {
    public static let id = "pthread-mutex"
    public static let summary =
        "our baseline: pthread workers sharing one FIFO behind a pthread mutex + condition variable"
    public static let unsupported: [RuntimeBehaviour: String] = [:]
    /// libdispatch's cap on threads it adds; ours too.
    static let maximumAddedThreads = 255
    static var retireAfter: Duration { .seconds(1) }

    public let workers: Int

    private let mutex = PThreadMutex()
    private let workAvailable = PThreadCondition()
    private var jobs = Deque<@Sendable () -> Void>()
    /// Workers blocked in `workAvailable.wait`.
    private var sleepers = 0
    /// Signals sent that a sleeper has not yet woken up for. A submission wakes a sleeper only
    /// when `sleepers > wakeupsInFlight`: one wake-up per new block, never a broadcast, and no
    /// futex call when every sleeper is already on its way.
    private var wakeupsInFlight = 0
    private var state = State.running
    private var threads: [PThread] = []
    /// Blocks taken off the FIFO so far: the monitor's sign of progress.
    private var taken: UInt = 0
    private var monitor: StallMonitor!

    private enum State { case running, stopping, stopped }

    public init(workers: Int) {
        self.workers = resolvedWorkerCount(workers)
        monitor = StallMonitor(watching: self, width: self.workers, name: "pthread-monitor")
        mutex.withLock {
            for _ in 0..<self.workers { startThread() }
        }
    }

    /// Starts a worker. The caller holds `mutex`.
    private func startThread() {
        // Strong capture: a runtime that is never shut down leaks its threads rather than
        // leaving them to touch a freed object.
        threads.append(PThread.spawn(name: Self.id) { self.workerLoop() })
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        mutex.lock()
        precondition(state != .stopped, "async on a \(Self.id) runtime after shutdown(): nothing would run it")
        jobs.append(work)
        if sleepers > wakeupsInFlight {
            wakeupsInFlight += 1
            workAvailable.signal()
        }
        mutex.unlock()
    }

    public func shutdown() {
        mutex.lock()
        guard state == .running else {
            mutex.unlock()
            return
        }
        precondition(
            !threads.contains { $0.isCurrent },
            "shutdown() called from a \(Self.id) worker: it would wait for itself to exit")
        state = .stopping
        mutex.unlock()
        // The monitor watches until every worker is gone (a block blocked where the pool cannot
        // see may wait for one still queued); a thread it adds meanwhile is joined next round.
        joinWorkers()
        monitor.stop()
        joinWorkers()
        // A thread outside the pool may have submitted after the last worker saw the FIFO empty
        // and exited. Nothing is dropped: the caller runs such leftovers (and what they submit).
        mutex.lock()
        while let job = jobs.popFirst() {
            mutex.unlock()
            job()
            mutex.lock()
        }
        state = .stopped
        mutex.unlock()
    }

    private func joinWorkers() {
        while true {
            let batch = mutex.withLock { () -> [PThread] in
                workAvailable.broadcast()
                defer { threads.removeAll() }
                return threads
            }
            if batch.isEmpty { return }
            for thread in batch { thread.join() }
        }
    }

    private func workerLoop() {
        monitor.registerCurrentThread()
        defer { monitor.unregisterCurrentThread() }
        mutex.lock()
        while true {
            if let job = jobs.popFirst() {
                taken &+= 1
                mutex.unlock()
                job()
                mutex.lock()
                continue
            }
            if state != .running { break }  // stopping and nothing left: blocks may still add jobs until here
            sleepers += 1
            var woken = true
            if threads.count > workers {
                woken = workAvailable.wait(mutex, until: .after(Self.retireAfter))
            } else {
                workAvailable.wait(mutex)
            }
            sleepers -= 1
            if wakeupsInFlight > 0 { wakeupsInFlight -= 1 }
            if !woken, state == .running, jobs.isEmpty, threads.count > workers, retireCurrentThread() { break }
        }
        mutex.unlock()
    }

    /// Removes the calling thread from `threads` and detaches it, so nothing joins it. The caller
    /// holds `mutex` and the pool is running (shutdown joins every thread still listed).
    private func retireCurrentThread() -> Bool {
        guard let index = threads.firstIndex(where: \.isCurrent) else { return false }
        threads.remove(at: index).detach()
        return true
    }

    // MARK: StallWatchedPool (read by the monitor's thread a few times per tick: the lock is cheap there)

    public var hasWaitingWork: Bool { mutex.withLock { !jobs.isEmpty } }
    public var progress: UInt { mutex.withLock { taken } }
    public var hasIdleWorker: Bool { mutex.withLock { sleepers > wakeupsInFlight } }

    public func addStallThread() -> Bool {
        mutex.withLock {
            guard state != .stopped, threads.count < workers + Self.maximumAddedThreads else { return false }
            startThread()
            return true
        }
    }
}

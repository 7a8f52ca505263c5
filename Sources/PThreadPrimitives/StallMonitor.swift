import CThreadInfo

/// What a `StallMonitor` asks of the pool it watches. Each answer is a hint read without the
/// pool's locks: a stall lasts at least one whole interval, so a stale answer only delays the
/// monitor by one tick or makes it skip one.
public protocol StallWatchedPool: AnyObject, Sendable {
    /// Work waits that no worker has taken yet.
    var hasWaitingWork: Bool { get }
    /// A count that grows each time a worker takes work: unchanged over an interval means no
    /// worker took anything during it.
    var progress: UInt { get }
    /// Some worker is parked, napping or about to look for work: the pool will take the waiting
    /// work without help.
    var hasIdleWorker: Bool { get }
    /// Starts one more worker thread (and counts it among the pool's events, if it counts any).
    /// False when the pool is at its limit of threads.
    func addStallThread() -> Bool
}

/// Adds a thread to a pool whose workers all block where the pool cannot see them: a block that
/// sleeps, waits on a plain pthread condition or reads a pipe keeps its worker, and the pool's own
/// waits (`willBlock`) never hear of it. libdispatch on Linux has the same problem and the same
/// answer: a timer that reads each worker's state in /proc and pokes the root queue when fewer
/// workers are runnable than CPUs while work waits (src/event/workqueue.c, once a second).
///
/// A tick every `interval`. A stall is: work waits, no worker is idle, no worker took anything
/// since the tick before, and fewer of the pool's threads are running or runnable ('R' in
/// /proc/self/task/TID/stat) than its width. Then one thread is added, and the next can come only
/// after two more ticks, so the new thread has time to take the work before the monitor looks
/// again. A block is thus delayed by at most two intervals (one to see the work waiting, one to
/// see it still waiting) before a thread comes for it. A pool busy computing (every worker
/// runnable) is not stalled: a thread more would only share the CPUs.
///
/// The monitor's own cost: a few loads per tick while the pool has no waiting work, and a read of
/// one small /proc file per worker when it has; it never touches the pool's hot paths.
public final class StallMonitor: @unchecked Sendable {
    /// Twenty ticks a second: a blocked pool gets its thread within 50-100 ms, where libdispatch's
    /// once-a-second timer can take up to a second (README.md, "StallMonitor"), and the monitor
    /// wakes too rarely to cost anything measurable (a futex wait and a few loads per tick).
    public static var defaultInterval: Duration { .milliseconds(50) }

    public let interval: Duration
    private let width: Int
    private let lock = PThreadMutex()
    private let tick = PThreadCondition()
    private var stopped = false
    /// Kernel ids of the pool's worker threads, each registered by the thread itself.
    private var threadIDs: [Int32] = []
    private var thread: PThread?

    /// Starts watching `pool`, whose `width` workers should be running when it has work. The
    /// monitor holds the pool unowned: the pool calls `stop()` before it goes.
    public init(watching pool: some StallWatchedPool, width: Int, name: String, interval: Duration = defaultInterval) {
        self.interval = interval
        self.width = width
        thread = PThread.spawn(name: name) { [unowned(unsafe) pool, self] in self.watch(pool) }
    }

    /// Called by each worker thread when it starts: the monitor counts it among the pool's threads.
    public func registerCurrentThread() {
        let id = rb_thread_id()
        lock.withLock { threadIDs.append(id) }
    }

    /// Called by each worker thread before it ends.
    public func unregisterCurrentThread() {
        let id = rb_thread_id()
        lock.withLock {
            if let index = threadIDs.firstIndex(of: id) { threadIDs.remove(at: index) }
        }
    }

    /// Ends the monitor and waits for its thread. Idempotent. After it returns no thread is added.
    public func stop() {
        let monitor = lock.withLock { () -> PThread? in
            stopped = true
            tick.broadcast()
            defer { thread = nil }
            return thread
        }
        monitor?.join()
    }

    private func watch(_ pool: some StallWatchedPool) {
        var waitingSince: UInt?  // the progress count at the last tick that saw work waiting
        while sleepOneInterval() {
            guard pool.hasWaitingWork, !pool.hasIdleWorker else {
                waitingSince = nil
                continue
            }
            let progress = pool.progress
            guard waitingSince == progress else {
                waitingSince = progress
                continue
            }
            waitingSince = nil
            if runnableThreads() < width { _ = pool.addStallThread() }
        }
    }

    /// False once `stop()` was called.
    private func sleepOneInterval() -> Bool {
        let deadline = MonotonicInstant.after(interval)
        lock.lock()
        defer { lock.unlock() }
        while !stopped, MonotonicInstant.now < deadline {
            _ = tick.wait(lock, until: deadline)
        }
        return !stopped
    }

    /// The pool's threads running or ready to run now.
    private func runnableThreads() -> Int {
        let ids = lock.withLock { threadIDs }
        return ids.reduce(0) { count, id in count + (rb_thread_is_runnable(id) == 1 ? 1 : 0) }
    }
}

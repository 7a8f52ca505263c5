import DequeModule
import PThreadPrimitives
import RuntimeKit

/// Backend `pthread-mutex`: the baseline every other backend is measured against. Worker threads
/// from `pthread_create` share one FIFO of blocks guarded by a single `pthread_mutex_t`, and sleep
/// on one `pthread_cond_t` when it is empty. Serial queues are strands on this pool; semaphores
/// and groups are mutex + condition variable. Every submission takes the one lock, which is the
/// point: it shows what a global lock costs once threads contend for it.
public final class PThreadRuntime: PoolBackedRuntime, @unchecked Sendable {
    public static let id = "pthread-mutex"
    public static let summary = "pthread workers sharing one FIFO behind a pthread mutex + condition variable"
    public static let unsupported: [RuntimeBehaviour: String] = [
        .waitWithEveryWorkerWaiting: "a fixed pool whose waits only block: with every worker waiting, no thread is left to run the queued block that would wake them",
    ]

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

    private enum State { case running, stopping, stopped }

    public init(workers: Int) {
        self.workers = resolvedWorkerCount(workers)
        mutex.withLock {
            for _ in 0..<self.workers {
                // Strong capture: a runtime that is never shut down leaks its threads rather than
                // leaving them to touch a freed object.
                threads.append(PThread.spawn { self.workerLoop() })
            }
        }
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
        precondition(!threads.contains { $0.isCurrent },
                     "shutdown() called from a \(Self.id) worker: it would wait for itself to exit")
        state = .stopping
        workAvailable.broadcast()
        let toJoin = threads
        mutex.unlock()
        for thread in toJoin { thread.join() }
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

    private func workerLoop() {
        mutex.lock()
        while true {
            if let job = jobs.popFirst() {
                mutex.unlock()
                job()
                mutex.lock()
                continue
            }
            if state != .running { break }  // stopping and nothing left: blocks may still add jobs until here
            sleepers += 1
            workAvailable.wait(mutex)
            sleepers -= 1
            if wakeupsInFlight > 0 { wakeupsInFlight -= 1 }
        }
        mutex.unlock()
    }
}

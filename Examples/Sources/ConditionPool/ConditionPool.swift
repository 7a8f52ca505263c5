import PThreadPrimitives
import RuntimeKit
import Synchronization

/// A runtime as someone outside RuntimeBench might write one: a fixed number of threads taking
/// blocks from one FIFO behind one mutex and one condition variable. It brings only the pool
/// (`async`, `shutdown`); serial queues, semaphores, groups and `apply` come from
/// `PoolBackedRuntime`, built on that pool.
///
/// Being fixed, the pool cannot honour a wait that needs a queued block while every thread waits:
/// it says so in `unsupported`, and the suite then reports those cases "not applicable" instead
/// of deadlocking.
public final class ConditionPool: PoolBackedRuntime, @unchecked Sendable {
    public static let id = "condition-pool"
    public static let summary = "an outside package's fixed pool: one FIFO behind one mutex and one condition variable"
    public static let unsupported: [RuntimeBehaviour: String] = [
        .waitWithEveryWorkerWaiting: "a fixed pool: when every thread waits for a block still queued, nothing runs it",
        .waitUnseenByRuntime: "a fixed pool: it does not watch for threads blocked where it cannot see",
    ]

    /// How many times a worker of any ConditionPool went to sleep on the condition variable for
    /// want of work: this pool's own cost, which `ConditionPoolCounters` reports per operation.
    public static let sleeps = Atomic<Int>(0)

    public let workers: Int

    private let mutex = PThreadMutex()
    private let workAvailable = PThreadCondition()
    private let allDone = PThreadCondition()
    // Guarded by `mutex`.
    private var queue: [@Sendable () -> Void] = []
    private var head = 0
    private var running = 0
    private var stopping = false
    private var threads: [PThread] = []

    public init(workers: Int) {
        self.workers = resolvedWorkerCount(workers)
        for index in 0..<self.workers {
            threads.append(PThread.spawn(name: "condition-pool-\(index)") { self.work() })
        }
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        mutex.withLock {
            precondition(!stopping, "async on a condition-pool after shutdown(): nothing would run it")
            queue.append(work)
        }
        workAvailable.signal()
    }

    /// Runs every block submitted so far, and any they submit, then joins the threads.
    public func shutdown() {
        mutex.withLock {
            while head < queue.count || running > 0 { allDone.wait(mutex) }
            stopping = true
        }
        workAvailable.broadcast()
        threads.forEach { $0.join() }
        threads.removeAll()
    }

    private func work() {
        mutex.lock()
        while true {
            if head < queue.count {
                let block = queue[head]
                head += 1
                if head == queue.count { queue.removeAll(keepingCapacity: true); head = 0 }
                running += 1
                mutex.unlock()
                block()
                mutex.lock()
                running -= 1
                if head == queue.count && running == 0 { allDone.broadcast() }
            } else if stopping {
                mutex.unlock()
                return
            } else {
                Self.sleeps.wrappingAdd(1, ordering: .relaxed)
                workAvailable.wait(mutex)
            }
        }
    }
}

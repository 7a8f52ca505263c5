import PThreadPrimitives
import Synchronization

/// Blocks that block where the pool cannot see (a sleep, a plain pthread condition, a foreign
/// lock): the `StallMonitor` notices work that waits while fewer workers than the width are
/// runnable, and asks for a stall thread. Every thief indexes the fixed `pool`, so the pool does
/// not grow by workers (that would add a victim to every steal): a stall thread is a stand-in, a
/// `Worker` of this pool's identity outside `pool`, so whatever a job expects of a worker holds
/// (a join's half, an apply's piece, a call from outside). It takes what waits (its own deque,
/// the injector, then the oldest job of each worker's and each other stand-in's deque, as a
/// thief would) and runs it, until it finds nothing; then it ends. Workers never look at a
/// stand-in's deque (other stand-ins do), so a stand-in about to block moves its deque to the
/// injector (`publishBeforeBlocking`). If the stall goes on, the monitor adds another stand-in
/// after two more ticks.
extension StealingRuntime: StallWatchedPool {
    /// libdispatch's cap on threads it adds; ours too.
    static let maximumStallThreads = 255

    public var hasWaitingWork: Bool {
        hasVisibleWork() || stallLock.withLock { standIns.contains { $0.deque.count > 0 } }
    }

    /// Jobs that left the injector, plus each deque's `top`, which only grows (a steal, or the
    /// owner's pop of its last job, moves it): work that left a place where it waited. A worker
    /// running jobs from its own deque's bottom does not count, so a job stranded at the top of a
    /// blocked worker's deque is found even while another worker keeps busy.
    public var progress: UInt {
        let tops = { (sum: UInt, worker: Worker) in sum &+ UInt(bitPattern: worker.deque.top.load(ordering: .relaxed)) }
        return stallLock.withLock { standIns.reduce(pool.reduce(injector.jobsTaken, tops), tops) }
    }

    public var hasIdleWorker: Bool { sleepers.hasIdleWorker }

    /// A stall thread's stand-in: a `Worker` of this pool's identity whose index no worker of
    /// `pool` has.
    func isStandIn(_ worker: Worker) -> Bool { worker.index >= pool.count }

    public func addStallThread() -> Bool {
        stallLock.withLock {
            stallThreads.removeAll { stall in
                guard stall.finished.flag.load(ordering: .acquiring) else { return false }
                stall.thread.join()  // it has ended: the join only frees it
                return true
            }
            guard stallThreads.count < Self.maximumStallThreads else { return false }
            let finished = StallThread.Finished()
            let thread = PThread.spawn(name: "work-stealing+") { [self] in
                runWhileStalled()
                finished.flag.store(true, ordering: .releasing)
            }
            stallThreads.append(StallThread(thread: thread, finished: finished))
            return true
        }
    }

    /// Runs waiting jobs as a stand-in worker until none is found.
    private func runWhileStalled() {
        monitor.registerCurrentThread()
        // An index no worker of `pool` has (`isStandIn`): nobody's victim, it steals from all.
        let standIn = Worker(index: pool.count, pool: poolIdentity)
        stallLock.withLock { standIns.append(standIn) }
        CurrentWorker.set(standIn)
        defer {
            CurrentWorker.clear()
            stallLock.withLock { standIns.removeAll { $0 === standIn } }
            monitor.unregisterCurrentThread()
        }
        while let job = standIn.deque.pop() ?? injector.pop() ?? stealOldest(for: standIn) {
            job.run()
            standIn.publishEvents()
        }
    }

    private func stealOldest(for standIn: Worker) -> JobRef? {
        for worker in pool { if let job = worker.deque.steal() { return job } }
        for other in stallLock.withLock({ standIns }) where other !== standIn {
            if let job = other.deque.steal() { return job }
        }
        return nil
    }

    /// Joins every stall thread: after the monitor has stopped, none is added any more.
    func joinStallThreads() {
        let threads = stallLock.withLock {
            defer { stallThreads.removeAll() }
            return stallThreads
        }
        for stall in threads { stall.thread.join() }
    }
}

/// A stall thread and the flag it raises when it ends (so the list can forget it; it is joined
/// either way, at the latest by shutdown).
struct StallThread: Sendable {
    final class Finished: Sendable { let flag = Atomic<Bool>(false) }
    let thread: PThread
    let finished: Finished
}

import DequeModule
import PThreadPrimitives
import Synchronization

/// The queue for jobs submitted from threads outside the pool (and for the half a full worker
/// deque spills). A mutex-guarded FIFO: outside submission is the slow path by nature (it wakes a
/// worker); `isEmpty` is an atomic so idle workers can poll it without taking the lock.
final class Injector: @unchecked Sendable {
    /// Spinning: the producer and the workers each hold it for a few dozen nanoseconds, and a
    /// plain mutex put the loser of every collision to sleep in the kernel (profiles of outside
    /// submission showed more time in futex waits than in the jobs).
    private let mutex = PThreadMutex(spinning: true)
    private var jobs = Deque<JobRef>()
    private let size = Atomic<Int>(0)

    func push(_ job: JobRef) {
        mutex.lock()
        jobs.append(job)
        // releasing: a worker that sees the new size then takes the lock and finds the job.
        size.add(1, ordering: .releasing)
        mutex.unlock()
    }

    func push<S: Sequence>(contentsOf batch: S) where S.Element == JobRef {
        mutex.lock()
        let before = jobs.count
        jobs.append(contentsOf: batch)
        size.add(jobs.count - before, ordering: .releasing)
        mutex.unlock()
    }

    func pop() -> JobRef? {
        guard size.load(ordering: .acquiring) > 0 else { return nil }
        mutex.lock()
        defer { mutex.unlock() }
        guard let job = jobs.popFirst() else { return nil }
        size.subtract(1, ordering: .relaxed)
        return job
    }

    /// Takes the oldest job to run now and moves up to half of the rest (at most
    /// `WorkDeque.maximumBatch` in all) onto `destination`, the caller's own deque: one lock for a
    /// batch, so workers draining a busy injector do not fight its producer for the mutex per job.
    func popBatch(into destination: WorkDeque) -> JobRef? {
        guard size.load(ordering: .acquiring) > 0 else { return nil }
        mutex.lock()
        defer { mutex.unlock() }
        guard let first = jobs.popFirst() else { return nil }
        let moving = min(jobs.count / 2, WorkDeque.maximumBatch - 1)
        var moved = 0
        while moved < moving, let job = jobs.first, destination.push(job) {
            jobs.removeFirst()
            moved += 1
        }
        size.subtract(1 + moved, ordering: .relaxed)
        return first
    }

    var isEmpty: Bool { size.load(ordering: .acquiring) == 0 }
}

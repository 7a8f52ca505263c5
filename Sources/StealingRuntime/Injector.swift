import DequeModule
import PThreadPrimitives
import Synchronization

/// The queue for jobs submitted from threads outside the pool (and for the half a full worker
/// deque spills). A mutex-guarded FIFO: outside submission is the slow path by nature (it wakes a
/// worker); `isEmpty` is an atomic so idle workers can poll it without taking the lock.
final class Injector: @unchecked Sendable {
    private let mutex = PThreadMutex()
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

    var isEmpty: Bool { size.load(ordering: .acquiring) == 0 }
}

import CSpinHint
#if canImport(Glibc)
import Glibc
#endif
import DequeModule
import Synchronization

/// The queue for jobs submitted from threads outside the pool (and for the half a full worker
/// deque spills). A FIFO behind a spin lock; `isEmpty` is an atomic so idle workers can poll it
/// without taking the lock.
///
/// The producer and the workers each hold the lock for a few dozen nanoseconds. A plain mutex put
/// the loser of every collision to sleep in the kernel; glibc's adaptive mutex still cost a call
/// and a locked instruction on each side of every section (a tenth of an outside submission's
/// profile), and the deque, a `var` of a class, a dynamic exclusivity check per access (another
/// twentieth). The lock is one compare-and-exchange to take and one store to release, and the deque
/// lives behind a pointer, which Swift does not check.
final class Injector: @unchecked Sendable {
    /// True while someone holds the lock: acquiring when taken, releasing when dropped, so each
    /// holder sees the deque as the previous one left it.
    private let locked = Atomic<Bool>(false)
    private let jobs: UnsafeMutablePointer<Deque<JobRef>>
    private let size = Atomic<Int>(0)

    init() {
        jobs = .allocate(capacity: 1)
        jobs.initialize(to: Deque())
    }

    deinit {
        jobs.deinitialize(count: 1)
        jobs.deallocate()
    }

    /// Takes the lock; after 64 looks at a held lock, yields between looks (its holder may have
    /// been preempted inside its few instructions).
    @inline(__always)
    private func lock() {
        var looks = 0
        while true {
            if !locked.load(ordering: .relaxed),
               locked.compareExchange(expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
                return
            }
            looks += 1
            if looks < 64 { rb_spin_pause() } else { sched_yield() }
        }
    }

    @inline(__always)
    private func unlock() { locked.store(false, ordering: .releasing) }

    func push(_ job: JobRef) {
        lock()
        jobs.pointee.append(job)
        // releasing: a worker that sees the new size then takes the lock and finds the job.
        size.add(1, ordering: .releasing)
        unlock()
    }

    func push<S: Sequence>(contentsOf batch: S) where S.Element == JobRef {
        lock()
        let before = jobs.pointee.count
        jobs.pointee.append(contentsOf: batch)
        size.add(jobs.pointee.count - before, ordering: .releasing)
        unlock()
    }

    func pop() -> JobRef? {
        guard size.load(ordering: .acquiring) > 0 else { return nil }
        lock()
        defer { unlock() }
        guard let job = jobs.pointee.popFirst() else { return nil }
        size.subtract(1, ordering: .relaxed)
        return job
    }

    /// Takes the oldest job to run now and moves up to half of the rest (at most
    /// `WorkDeque.maximumBatch` in all) onto `destination`, the caller's own deque: one lock for a
    /// batch, so workers draining a busy injector do not fight its producer for the lock per job.
    func popBatch(into destination: WorkDeque) -> JobRef? {
        guard size.load(ordering: .acquiring) > 0 else { return nil }
        lock()
        defer { unlock() }
        guard let first = jobs.pointee.popFirst() else { return nil }
        let moving = min(jobs.pointee.count / 2, WorkDeque.maximumBatch - 1)
        var moved = 0
        while moved < moving, let job = jobs.pointee.first, destination.push(job) {
            jobs.pointee.removeFirst()
            moved += 1
        }
        size.subtract(1 + moved, ordering: .relaxed)
        return first
    }

    var isEmpty: Bool { size.load(ordering: .acquiring) == 0 }
}

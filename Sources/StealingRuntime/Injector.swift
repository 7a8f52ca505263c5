import CSpinHint
#if canImport(Glibc)
import Glibc
#endif
import DequeModule
import PThreadPrimitives
import Synchronization

/// The queue for jobs submitted from threads outside the pool (and for the half a full worker
/// deque spills). Two parts:
///
/// - `incoming`, a lock-free stack of submitted blocks (`HeapJob`s, linked through the word their
///   cache uses while they are free): a submitter pushes with one exchange (and then links its job
///   to the one below) and never meets the workers' lock. With every submission under the lock,
///   a submitter from outside and two workers taking one or two jobs each time would fight over
///   it for every job (README.md, "Jobs").
/// - `jobs`, a FIFO behind a spin lock, which only workers take, and where a full worker deque
///   spills (join halves have no link word). A worker that takes the lock moves the whole of
///   `incoming` into `jobs` first, oldest first, so a submitter's jobs leave in the order it
///   pushed them. While `jobs` is empty a worker takes the whole of `incoming` without the lock
///   (`takeSubmitted`), again oldest first.
///
/// The stack is only ever taken whole (exchange), so no ABA problem can occur (README.md,
/// "Injector"). `isEmpty` reads both parts without the lock, for idle workers' polling.
///
/// The spin lock: a plain mutex put the loser of every collision to sleep in the kernel; glibc's
/// adaptive mutex still cost a call and a locked instruction on each side of every section, and
/// the deque, a `var` of a class, a dynamic exclusivity check per access. The lock is one
/// compare-and-exchange to take and one store to release, and the deque lives behind a pointer,
/// which Swift does not check.
final class Injector: @unchecked Sendable {
    /// True while someone holds the lock: acquiring when taken, releasing when dropped, so each
    /// holder sees the deque as the previous one left it.
    private let locked = Atomic<Bool>(false)
    private let jobs: UnsafeMutablePointer<Deque<JobRef>>
    private let size = Atomic<Int>(0)
    /// Jobs taken out so far (added to by each take, under the lock or not; read by the stall
    /// monitor).
    private let taken = Atomic<UInt>(0)
    /// The top of the stack of submitted blocks (an address, 0 when empty), in a line of its own:
    /// the submitter writes it on every push, and the lock's line is the workers'.
    private let incomingLine = LineSlots<Atomic<UInt>>(count: 1) { _ in Atomic(0) }
    private var incoming: UnsafeMutablePointer<Atomic<UInt>> { incomingLine[0] }

    init() {
        jobs = .allocate(capacity: 1)
        jobs.initialize(to: Deque())
    }

    deinit {
        jobs.deinitialize(count: 1)
        jobs.deallocate()
        incomingLine.deallocate()
    }

    /// Takes the lock; after 64 looks at a held lock, yields between looks (its holder may have
    /// been preempted inside its few instructions).
    @inline(__always)
    private func lock() {
        var looks = 0
        while true {
            if !locked.load(ordering: .relaxed),
                locked.compareExchange(
                    expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
                ).exchanged
            {
                return
            }
            looks += 1
            if looks < 64 { rb_spin_pause() } else { RuntimeEvents.yieldCPU() }
        }
    }

    @inline(__always)
    private func unlock() { locked.store(false, ordering: .releasing) }

    func push<S: Sequence>(contentsOf batch: S) where S.Element == JobRef {
        lock()
        let before = jobs.pointee.count
        jobs.pointee.append(contentsOf: batch)
        size.add(jobs.pointee.count - before, ordering: .releasing)
        unlock()
    }

    /// A link not written yet: the pusher has made its job the top and has still to store the
    /// address below it. No job lies at address 1.
    private static let linkPending: UInt = 1

    /// A job's link as an atomic word: while the job is in the stack its pusher stores the link
    /// after the exchange that published the job, so a taker may read it while it is written.
    @inline(__always)
    private static func linkWord(_ job: UnsafeMutablePointer<HeapJob>) -> UnsafeMutablePointer<Atomic<UInt>> {
        UnsafeMutableRawPointer(job).advanced(by: MemoryLayout<HeapJob>.offset(of: \.link)!)
            .assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// Pushes a submitted block without the lock: one exchange of the top, then the link to the
    /// block below. A compare-and-exchange loop read the top first and then wrote it, two trips
    /// for its line while a worker takes from the stack (README.md, "Injector").
    func push(submitted job: UnsafeMutablePointer<HeapJob>) {
        let link = Self.linkWord(job)
        link.pointee.store(Self.linkPending, ordering: .relaxed)
        // Sequentially consistent: it releases the job's contents to the worker whose acquiring
        // exchange takes the stack, and it stands in for the fence of the wake-up decision that
        // follows (`Sleepers.notifyOneAfterOrderedPush`).
        let below = incoming.pointee.exchange(UInt(bitPattern: job), ordering: .sequentiallyConsistent)
        // releasing: pairs with the taker's acquiring load, which may already wait (`LinkWindow`).
        link.pointee.store(below, ordering: .releasing)
    }

    /// Takes the whole stack of submitted blocks (acquiring: the pushes' releasing exchanges
    /// published their contents) and reverses its links in place, no array per batch: returns
    /// the oldest's address, 0 when it was empty.
    private func takeStack() -> UInt {
        var newestFirst = incoming.pointee.exchange(0, ordering: .acquiring)
        var oldestFirst: UInt = 0
        while let job = UnsafeMutablePointer<HeapJob>(bitPattern: newestFirst) {
            let link = Self.linkWord(job)
            newestFirst = LinkWindow.awaitLink(unwritten: Self.linkPending) { link.pointee.load(ordering: .acquiring) }
            job.pointee.link = oldestFirst
            oldestFirst = UInt(bitPattern: job)
        }
        return oldestFirst
    }

    /// Under the lock: moves every submitted block from `incoming` to the back of `jobs`, oldest
    /// first (the stack holds them newest first).
    private func takeIncoming() {
        guard incoming.pointee.load(ordering: .relaxed) != 0 else { return }
        size.add(append(chain: takeStack()), ordering: .relaxed)
    }

    /// Under the lock: appends the blocks linked oldest first from `oldestFirst` to the back of
    /// `jobs`, clearing their links, and returns how many.
    private func append(chain oldestFirst: UInt) -> Int {
        var next = oldestFirst
        var moved = 0
        while let job = UnsafeMutablePointer<HeapJob>(bitPattern: next) {
            next = job.pointee.link
            job.pointee.link = 0
            jobs.pointee.append(JobRef(UnsafeMutableRawPointer(job)))
            moved += 1
        }
        return moved
    }

    func pop() -> JobRef? {
        guard !isEmpty else { return nil }
        lock()
        defer { unlock() }
        takeIncoming()
        guard let job = jobs.pointee.popFirst() else { return nil }
        size.subtract(1, ordering: .relaxed)
        taken.wrappingAdd(1, ordering: .relaxed)
        return job
    }

    /// Takes the oldest job to run now and moves up to half of the rest (at most
    /// `WorkDeque.maximumBatch` in all) onto `destination`, the caller's own deque: one lock for a
    /// batch, so workers draining a busy injector do not fight its producer for the lock per job.
    /// With nothing spilled, the submitted blocks are taken without the lock (`takeSubmitted`).
    func popBatch(into destination: WorkDeque) -> JobRef? {
        guard !isEmpty else { return nil }
        if let job = takeSubmitted(into: destination) { return job }
        lock()
        defer { unlock() }
        takeIncoming()
        guard let first = jobs.pointee.popFirst() else { return nil }
        let moving = min(jobs.pointee.count / 2, WorkDeque.maximumBatch - 1)
        var moved = 0
        while moved < moving, let job = jobs.pointee.first, destination.push(job) {
            jobs.pointee.removeFirst()
            moved += 1
        }
        size.subtract(1 + moved, ordering: .relaxed)
        taken.wrappingAdd(UInt(1 + moved), ordering: .relaxed)
        return first
    }

    /// While `jobs` is empty: takes the whole stack of submitted blocks with one exchange, no lock,
    /// and returns the oldest to run now; the rest go onto `destination` oldest first (thieves
    /// take from that end), up to a batch, and any beyond that into `jobs`. Workers that take one
    /// or two blocks as they come (a fan-out from outside: a submitter, and workers that look
    /// while it pushes) otherwise took the lock, the deque's size and the count taken for each,
    /// lines the two workers passed between them per block; `bench ab`, 2026-12-05 (README.md,
    /// "Injector"). nil when `jobs` holds anything (spills: the locked path takes them in order)
    /// or another worker took the stack first.
    private func takeSubmitted(into destination: WorkDeque) -> JobRef? {
        guard size.load(ordering: .relaxed) == 0, incoming.pointee.load(ordering: .relaxed) != 0 else { return nil }
        guard let first = UnsafeMutablePointer<HeapJob>(bitPattern: takeStack()) else { return nil }
        var rest = first.pointee.link
        first.pointee.link = 0
        var took: UInt = 1
        // Each link is cleared before the push: once on the deque a thief may run the job, and
        // its cache reuses the word. One the deque refuses gets its link back and heads the rest.
        while took < UInt(WorkDeque.maximumBatch), let job = UnsafeMutablePointer<HeapJob>(bitPattern: rest) {
            let after = job.pointee.link
            job.pointee.link = 0
            guard destination.push(JobRef(UnsafeMutableRawPointer(job))) else {
                job.pointee.link = after
                break
            }
            rest = after
            took += 1
        }
        taken.wrappingAdd(took, ordering: .relaxed)
        if rest != 0 {
            // Beyond a batch, into `jobs`, as a spill goes: no array for them.
            lock()
            size.add(append(chain: rest), ordering: .releasing)
            unlock()
        }
        return JobRef(UnsafeMutableRawPointer(first))
    }

    /// How many jobs have left the injector: unchanged between two looks means nobody took one.
    var jobsTaken: UInt { taken.load(ordering: .relaxed) }

    /// Nothing in either part. A submitter's push is seen here once its exchange is
    /// (the parking protocol's fences order the two: README.md, "Who wakes whom").
    var isEmpty: Bool {
        size.load(ordering: .acquiring) == 0 && incoming.pointee.load(ordering: .acquiring) == 0
    }
}

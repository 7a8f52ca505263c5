import PThreadPrimitives
import RuntimeKit

/// What the deques and the injector carry: the address of a job whose first field is a
/// `JobHeader`. A plain address, not a reference: carrying it neither retains nor frees anything,
/// so a thief may read a slot speculatively (before it knows the job is its own) at no risk.
/// Whoever takes a `JobRef` out of a queue runs it exactly once; running it is what ends the
/// job's life (a heap job goes back to its cache, a stack job releases the frame that waits for it).
public struct JobRef: Equatable, @unchecked Sendable {
    @usableFromInline
    let address: UnsafeMutableRawPointer

    /// - Precondition (not checked): `address` points at a job whose first field is a
    ///   `JobHeader`, or the ref is never run (the deque's own tests carry bare tokens).
    @inlinable
    public init(_ address: UnsafeMutableRawPointer) { self.address = address }

    /// The raw bits, for the deque's atomic slots.
    @inlinable
    var bits: UInt { UInt(bitPattern: address) }

    @inlinable
    init(bits: UInt) { address = UnsafeMutableRawPointer(bitPattern: bits)! }

    /// Runs the job. The job may be gone when this returns.
    @inlinable
    func run() {
        address.load(as: JobHeader.self).execute(address)
    }
}

/// The first field of every job: how to run it. A C function pointer rather than a closure:
/// one word, no context to retain, and it can be read by a thread that does not know the job's
/// type.
@usableFromInline
struct JobHeader {
    @usableFromInline
    let execute: @convention(c) (UnsafeMutableRawPointer) -> Void

    @inlinable
    init(execute: @convention(c) (UnsafeMutableRawPointer) -> Void) { self.execute = execute }
}

/// A submitted block (`async`): header and closure in one block of the submitting thread's
/// `BlockCache` (PThreadPrimitives), which it goes back to when it runs. Allocated with malloc on
/// the submitting thread and freed on a worker, it would miss glibc's per-thread cache on both
/// sides, a large share of a task from outside the pool (README.md, "Jobs").
@usableFromInline
struct HeapJob {
    let header: JobHeader
    @usableFromInline var body: Body
    /// The cache's link while the job is free, and the injector's while it waits in its stack of
    /// submitted blocks. The cache's thread alone touches it while the job is free; in the stack
    /// its pusher stores it after publishing the job, so there the injector reads and writes it as
    /// an atomic word (`Injector.push(submitted:)`).
    @usableFromInline var link: UInt
    @usableFromInline let home: Unmanaged<BlockCache<HeapJob>>

    @usableFromInline
    init(home: Unmanaged<BlockCache<HeapJob>>) {
        header = JobHeader(execute: runHeapJob)
        body = .empty
        link = 0
        self.home = home
    }

    /// Puts `work` into a job from the calling thread's cache.
    static func make(_ work: @escaping @Sendable () -> Void) -> JobRef {
        let job = BlockCache<HeapJob>.allocate()
        job.pointee.body = .closure(work)
        return JobRef(UnsafeMutableRawPointer(job))
    }

    /// Puts `block`'s function and context into a job from the calling thread's cache.
    static func make(_ block: FunctionBlock) -> JobRef {
        let job = BlockCache<HeapJob>.allocate()
        job.pointee.body = .function(block.function, block.context)
        return JobRef(UnsafeMutableRawPointer(job))
    }

    /// The same, as a member of `group`, which the caller has entered for it.
    static func make(_ block: FunctionBlock, group: StealingGroup) -> JobRef {
        let job = BlockCache<HeapJob>.allocate()
        job.pointee.body = .groupMember(block.function, block.context, .passUnretained(group))
        return JobRef(UnsafeMutableRawPointer(job))
    }

    /// `work` as a member of `group`, which the caller has entered for it.
    static func make(_ work: @escaping @Sendable () -> Void, group: StealingGroup) -> JobRef {
        let job = BlockCache<HeapJob>.allocate()
        job.pointee.body = .groupClosure(work, .passUnretained(group))
        return JobRef(UnsafeMutableRawPointer(job))
    }
}

extension HeapJob {
    /// What the job runs. One field for all forms keeps a job at 56 bytes: a separate group field
    /// made it 64, and the chained spawn 30% slower (54 → 70 ns a link).
    @usableFromInline
    enum Body {
        case empty
        case closure(@Sendable () -> Void)
        /// A C function and its context (`async(_: FunctionBlock)`): a block submitted many times
        /// as one closure retained that closure's context per job, a count shared by the
        /// submitter and the workers (README.md, "Jobs").
        case function(WorkFunction, UnsafeMutableRawPointer?)
        /// The same, as a member of a group (`async(group:_:)`), left once it has run; not
        /// retained: a group with blocks among its members holds itself (`GroupWord`).
        case groupMember(WorkFunction, UnsafeMutableRawPointer?, Unmanaged<StealingGroup>)
        /// A closure as a member of a group (`async(group:_:)` with a closure), left the same way:
        /// wrapping it in a closure that leaves allocated that closure per block and retained the
        /// group in it.
        case groupClosure(@Sendable () -> Void, Unmanaged<StealingGroup>)
    }
}

extension HeapJob: CachedBlock {
    @usableFromInline
    static var cacheSlot: BlockCacheSlot { .stealingHeapJob }

    /// In batches: a worker holds the jobs it ran for a thread outside the pool and sends them home
    /// together, and before it sleeps (PThreadPrimitives/README.md, "BlockCache", has the figures).
    @inlinable
    static var returnsInBatches: Bool { true }

    @usableFromInline
    static var cacheThreadExit: @convention(c) (UnsafeMutableRawPointer?) -> Void {
        { BlockCache<HeapJob>.threadEnded($0) }
    }

    @usableFromInline
    static func cacheLink(of job: UnsafeMutablePointer<HeapJob>) -> UInt { job.pointee.link }

    @usableFromInline
    static func setCacheLink(of job: UnsafeMutablePointer<HeapJob>, to address: UInt) { job.pointee.link = address }
}

extension JobRef {
    /// Whether this is a submitted block (`HeapJob`) rather than a join's half. Only for a job the
    /// caller has taken out of its queue: reading the header of one still queued could read a job
    /// another thread has already run and freed.
    var isSubmittedBlock: Bool {
        let execute = address.load(as: JobHeader.self).execute
        return unsafeBitCast(execute, to: UnsafeRawPointer.self)
            == unsafeBitCast(heapJobExecute, to: UnsafeRawPointer.self)
    }
}

extension JobRef {
    /// The submitted block this is (only the injector's lock-free part needs to know: it links
    /// blocks through their `link`). A join's half here is a bug of the caller.
    var heapJob: UnsafeMutablePointer<HeapJob> {
        assert(isSubmittedBlock, "only submitted blocks go to the injector one at a time")
        return address.assumingMemoryBound(to: HeapJob.self)
    }
}

private let heapJobExecute: @convention(c) (UnsafeMutableRawPointer) -> Void = runHeapJob

/// Recycles the job before calling its block, so a block that submits more work reuses it.
private func runHeapJob(_ address: UnsafeMutableRawPointer) {
    let job = address.assumingMemoryBound(to: HeapJob.self)
    // Moving the whole job out hands its closure over without a retain. Not `Optional.take()` or
    // `unsafelyUnwrapped`: they are generic, and a closure returned through a generic result is
    // wrapped in a reabstraction thunk, one allocation per job (README.md, "Jobs").
    let home = job.pointee.home
    let moved = job.move()
    job.initialize(to: HeapJob(home: home))
    BlockCache<HeapJob>.recycle(job)
    switch moved.body {
    case .closure(let work): work()
    case .function(let function, let context): function(context)
    case .groupMember(let function, let context, let group):
        function(context)
        group._withUnsafeGuaranteedRef { $0.leave() }
    case .groupClosure(let work, let group):
        work()
        group._withUnsafeGuaranteedRef { $0.leave() }
    case .empty: preconditionFailure("a heap job was run twice, or run before it was filled")
    }
}

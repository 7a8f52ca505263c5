/// What the deques and the injector carry: the address of a job whose first field is a
/// `JobHeader`. A plain address, not a reference: carrying it neither retains nor frees anything,
/// so a thief may read a slot speculatively (before it knows the job is its own) at no risk.
/// Whoever takes a `JobRef` out of a queue runs it exactly once; running it is what ends the
/// job's life (a heap job frees itself, a stack job releases the frame that waits for it).
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

/// A submitted block (`async`): header and closure in one heap allocation, freed by running it.
@usableFromInline
struct HeapJob {
    let header: JobHeader
    let work: @Sendable () -> Void

    /// Moves `work` into a new heap job. One allocation (plus the closure's own context).
    static func make(_ work: @escaping @Sendable () -> Void) -> JobRef {
        let job = UnsafeMutablePointer<HeapJob>.allocate(capacity: 1)
        job.initialize(to: HeapJob(header: JobHeader(execute: runHeapJob), work: work))
        return JobRef(UnsafeMutableRawPointer(job))
    }
}

extension JobRef {
    /// Whether this is a submitted block (`HeapJob`) rather than a join's half. Only for a job the
    /// caller has taken out of its queue: reading the header of one still queued could read a job
    /// another thread has already run and freed.
    var isSubmittedBlock: Bool {
        let execute = address.load(as: JobHeader.self).execute
        return unsafeBitCast(execute, to: UnsafeRawPointer.self) == unsafeBitCast(heapJobExecute, to: UnsafeRawPointer.self)
    }
}

private let heapJobExecute: @convention(c) (UnsafeMutableRawPointer) -> Void = runHeapJob

/// Frees the job before calling its block, so a block that submits more work reuses the memory.
private func runHeapJob(_ address: UnsafeMutableRawPointer) {
    let job = address.assumingMemoryBound(to: HeapJob.self)
    let work = job.move().work
    job.deallocate()
    work()
}

import PThreadPrimitives
import RuntimeKit

/// Backend `fifo-dispatch`: our libdispatch-style queue system, the whole surface of the source
/// documents (shared/seeds): serial and concurrent queues with barriers, global queues by
/// priority, a main queue with `dispatchMain`, target-queue hierarchies, suspend and resume,
/// labels, context and finalizer, `sync` on the caller's thread, completion blocks, `apply` with
/// striding, futex semaphores, groups with timeouts and notify, and a cancelable group.
///
/// One runtime is one pool of workers with its own global and main queues (libdispatch has one
/// per process), so tests and benchmarks can make as many as they need.
public final class FIFODispatch: ConcurrencyRuntime, @unchecked Sendable {
    public typealias Queue = FIFOQueue
    public typealias Semaphore = FIFOSemaphore
    public typealias Group = FIFOGroup

    public static let id = "fifo-dispatch"
    public static let summary =
        "our libdispatch-style queues: lock-free lists, one state word per queue, futex semaphores, "
        + "spare workers for blocked blocks"

    @usableFromInline let pool: WorkerPool
    public let workers: Int
    /// The queue `dispatchMain` serves (serial; targets a root no worker serves).
    public let mainQueue: FIFOQueue
    /// The default global queue, unretained (the pool keeps its roots): a submission through
    /// `global(.default)` retained and released the root, and with submissions from both CPUs its
    /// count was one more line bouncing between them on every block.
    @usableFromInline let defaultRoot: Unmanaged<FIFOQueue>

    public init(workers: Int) {
        self.workers = resolvedWorkerCount(workers)
        pool = WorkerPool(width: self.workers)
        mainQueue = FIFOQueue(label: "fifo-dispatch.main", kind: .serial, qos: nil, target: pool.mainRoot, pool: pool)
        defaultRoot = .passUnretained(pool.root(.default))
    }

    deinit { shutdown() }

    // MARK: ConcurrencyRuntime

    @inlinable
    public func async(_ work: @escaping @Sendable () -> Void) {
        defaultRoot._withUnsafeGuaranteedRef { $0.async(work) }
    }

    /// `dispatch_async_f` on the default global queue: the function and context go into the task
    /// node, with nothing allocated or retained for the block.
    public func async(_ block: FunctionBlock) {
        defaultRoot._withUnsafeGuaranteedRef { $0.async(block) }
    }

    public func async(group: FIFOGroup, _ work: @escaping @Sendable () -> Void) {
        defaultRoot._withUnsafeGuaranteedRef { $0.async(group: group, work) }
    }

    /// `dispatch_group_async_f` on the default global queue: nothing allocated or retained.
    public func async(group: FIFOGroup, _ block: FunctionBlock) {
        defaultRoot._withUnsafeGuaranteedRef { $0.async(group: group, block) }
    }

    public func makeSerialQueue(label: String) -> FIFOQueue {
        makeQueue(label: label)
    }

    /// The queue itself: a `FIFOQueue` is a `SerialExecutor` (FIFOQueue+Executor.swift), whose
    /// jobs allocate nothing of their own and whose hops may skip the queue (`HandOff`).
    public func makeSerialExecutor(label: String) -> (any SerialExecutor)? {
        makeQueue(label: label)
    }

    /// The pool's one `FIFOTaskExecutor`: its jobs allocate nothing of their own, and a queue's
    /// jobs run on it too, so a task that prefers it hops between actors on one queue in place.
    public func makeTaskExecutor() -> (any TaskExecutor)? {
        pool.taskExecutor
    }

    public func makeSemaphore(value: Int) -> FIFOSemaphore {
        FIFOSemaphore(value: value, pool: pool)
    }

    public func makeGroup() -> FIFOGroup {
        FIFOGroup(pool: pool)
    }

    @_disfavoredOverload
    public func apply(iterations: Int, stride: StridePolicy, pieces body: (Range<Int>) -> Void) {
        global(.default).apply(iterations: iterations, stride: stride, pieces: body)
    }

    public func apply(iterations: Int, stride: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction)
    {
        global(.default).apply(iterations: iterations, stride: stride, context: context, piece)
    }

    public func shutdown() {
        pool.shutdown()
    }

    // MARK: the rest of the surface

    /// A new queue: serial unless `concurrent`; running through `target` (default: the global
    /// queue of its `qos`, or of `.default`).
    public func makeQueue(label: String, concurrent: Bool = false, qos: Priority? = nil, target: FIFOQueue? = nil)
        -> FIFOQueue
    {
        FIFOQueue(label: label, kind: concurrent ? .concurrent : .serial, qos: qos, target: target, pool: pool)
    }

    /// The global concurrent queue of a priority band.
    @inlinable
    public func global(_ priority: Priority = .default) -> FIFOQueue {
        pool.root(priority)
    }

    /// Serves the main queue on the calling thread forever (`dispatch_main`). A block on the main
    /// queue ends the program with `exit`.
    public func dispatchMain() -> Never {
        pool.drainMainQueue(until: .never)
        preconditionFailure("unreachable: the main queue's drain returned without a deadline")
    }

    /// Serves the main queue on the calling thread for `duration` (tests; a run loop's turn).
    public func drainMainQueue(for duration: Duration) {
        pool.drainMainQueue(until: .after(duration))
    }

    /// Threads the pool has now, spares included (tests of the blocking rule).
    public var threadCount: Int { pool.threadCount }

    /// The pool's counters, for diagnosing a stuck run.
    var debugState: String { pool.debugState }

    /// Workers napping now (tests of the nap's bound).
    var nappingWorkers: Int { pool.nappingWorkers }

    /// CPU time the pool's threads have used (tests of parking).
    public func workerCPUTime() -> Duration { pool.workerCPUTime() }
}

extension FIFOQueue {
    /// Calls `body` once per index of `0..<iterations` and returns when all calls have: the
    /// pieces form below, looping over each piece.
    @inlinable
    public func apply(iterations: Int, stride: StridePolicy, _ body: (Int) -> Void) {
        apply(
            iterations: iterations, stride: stride,
            pieces: { range in
                for index in range { body(index) }
            })
    }

    /// Calls `body` once per piece of `stride` iterations (`ApplyPlan`) with the piece's indices,
    /// and returns when all calls have. As `dispatch_apply`: on a global queue the pieces run on
    /// its workers and on the caller (so a nested `apply` is safe: its caller can do every piece
    /// alone); on any other queue the apply is a `sync` onto it, holding the queue (and each
    /// serial queue it runs through) for the whole loop, and the pieces run in parallel only when
    /// no queue on the way to the root is serial, else one at a time on the caller.
    /// Disfavored for the reason given at `ConcurrencyRuntime.apply(iterations:stride:pieces:)`.
    @_disfavoredOverload
    public func apply(iterations: Int, stride: StridePolicy, pieces body: (Range<Int>) -> Void) {
        withPieceFunction(calling: body) { context, piece in
            apply(iterations: iterations, stride: stride, context: context, piece)
        }
    }

    /// The pieces form with a C piece function, `piece(context, lower, upper)` once per piece:
    /// what the closure form comes down to, and what a caller with a C function (the suite's
    /// apply, as `dispatch_apply_f` takes one) calls without a closure per piece.
    public func apply(iterations: Int, stride: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction)
    {
        precondition(iterations >= 0, "apply over \(iterations) iterations: the count must be zero or more")
        let width = pool._withUnsafeGuaranteedRef { $0.width }
        switch kind {
        case .root:
            ParallelLoop.run(
                iterations: iterations, stride: stride, workers: width, submit: { self.async($0) },
                context: context, piece)
        case .mainRoot:
            Self.applyInOrder(iterations: iterations, stride: stride, workers: width, context: context, piece)
        case .serial, .concurrent:
            guard iterations > 0 else { return }
            sync(exclusive: kind == .serial) {
                guard let root = concurrentPathToRoot else {
                    Self.applyInOrder(iterations: iterations, stride: stride, workers: width, context: context, piece)
                    return
                }
                ParallelLoop.run(
                    iterations: iterations, stride: stride, workers: width, submit: { root.async($0) },
                    context: context, piece)
            }
        }
    }

    /// The pieces one after another on the caller, as on a serial queue.
    private static func applyInOrder(
        iterations: Int, stride: StridePolicy, workers: Int, context: UnsafeMutableRawPointer?, _ piece: PieceFunction
    ) {
        let plan = ApplyPlan(iterations: iterations, stride: stride, workers: workers)
        for index in 0..<plan.pieces {
            let range = plan.indices(ofPiece: index)
            piece(context, range.lowerBound, range.upperBound)
        }
    }

    /// The root this queue's blocks end up on, when every queue on the way there (this one
    /// included) is concurrent; nil when one is serial, which allows one block at a time.
    private var concurrentPathToRoot: FIFOQueue? {
        var queue = self
        while !queue.isRoot {
            guard queue.kind == .concurrent, let next = queue.target else { return nil }
            queue = next
        }
        return queue.kind == .root ? queue : nil
    }
}

/// A concurrency runtime the suite can measure: a pool that runs blocks, plus the serial queues,
/// counting semaphores and groups built on it.
///
/// Workloads are generic over `ConcurrencyRuntime` (never `any ConcurrencyRuntime`), so the
/// compiler can specialize them per backend and the hot path carries no existential box. The
/// semantics every conformer must honour are those of the source documents in shared/seeds
/// (dispatch queues, groups, semaphores); `ConformanceKit` checks them, here on every backend.
///
/// A backend that cannot honour a behaviour declares it in `unsupported`, with the reason, and the
/// suite reports "not applicable: reason" instead of deadlocking or faking a result.
public protocol ConcurrencyRuntime: AnyObject, Sendable {
    associatedtype Queue: SerialQueue
    associatedtype Semaphore: CountingSemaphore
    associatedtype Group: WorkGroup where Group.NotifyQueue == Queue

    /// Stable identifier used in case ids, results files and the CLI ("pthread-mutex", ...).
    static var id: String { get }
    /// One line saying what the backend is, for `bench list` and reports.
    static var summary: String { get }
    /// Behaviours this backend cannot honour, each with the reason. Empty by default.
    static var unsupported: [RuntimeBehaviour: String] { get }

    /// Readies this process for the runtime, before anything in it touches Swift concurrency: a
    /// child that measures or soaks the runtime (`bench case`, `bench soak-child`) calls it once,
    /// after pinning its CPUs and opening its counters, before the runtime exists. A runtime that
    /// takes over something process-wide (nio-global: Swift's global executor) does it here, and
    /// throws, saying why, when it cannot: the child then reports "not applicable" rather than
    /// measure something else under this runtime's name. The default does nothing.
    static func prepareProcess() throws(RuntimeUnavailable)

    /// Creates the runtime. `workers` = 0 means one worker per active CPU. A backend that does
    /// not own its threads declares `.workerCountControl` and reports its real width in `workers`.
    init(workers: Int)
    /// The number of threads that run blocks concurrently.
    var workers: Int { get }

    /// Submits `work` to run once, on some worker, as soon as one is free.
    func async(_ work: @escaping @Sendable () -> Void)
    /// Submits `work` as a member of `group`: the group stays non-empty until `work` returns.
    func async(group: Group, _ work: @escaping @Sendable () -> Void)
    func makeSerialQueue(label: String) -> Queue
    func makeSemaphore(value: Int) -> Semaphore
    func makeGroup() -> Group
    /// Calls `body` once per piece of `0..<iterations`, concurrently, with the piece's indices, and
    /// returns when every call has returned. The pieces cover every index exactly once and never
    /// overlap; zero iterations call `body` not at all. With `.fixed(n)` every piece is `n`
    /// consecutive indices, the last one possibly shorter (`ApplyPlan.indices(ofPiece:)`); with
    /// `.automatic` the backend chooses the pieces. The calling thread may take part.
    ///
    /// One call per piece, not per index: the loop over a piece's range is the caller's own code,
    /// inlined and specialized there, as the guide's striding puts the loop inside the block
    /// ("Improving on Loop Code"), so a small body pays no indirect call per index. Callers that
    /// want one call per index use the extension `apply(iterations:stride:_:)`.
    ///
    /// `@_disfavoredOverload` (here and on every implementation): an unlabeled trailing closure
    /// can match the `pieces:` parameter too, so without it `apply(iterations:stride:) { _ in ... }`
    /// would silently pick this form and run the body once per piece. Disfavored, such a call keeps
    /// the per-index meaning; pass the closure as `pieces:` to get this form.
    /// - Precondition: `iterations >= 0`.
    @_disfavoredOverload
    func apply(iterations: Int, stride: StridePolicy, pieces body: (Range<Int>) -> Void)
    /// The pieces form with a C function for the piece: `piece(context, lower, upper)` once per
    /// piece, as `apply(iterations:stride:pieces:)` would call its closure. A runtime with a C
    /// loop primitive (`dispatch_apply_f`) passes it through with no closure to box or retain per
    /// piece; the default calls the closure form.
    /// - Precondition: `iterations >= 0`; `context` stays valid until this returns.
    func apply(iterations: Int, stride: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction)
    /// Submits `block` to run once on some worker: `dispatch_async_f` where the runtime has it,
    /// otherwise the block's closure, made once.
    func async(_ block: FunctionBlock)
    /// Submits `block` as a member of `group`: `dispatch_group_async_f` where the runtime has it,
    /// otherwise `async(group:_:)` with the block's closure.
    func async(group: Group, _ block: FunctionBlock)
    /// Runs what was submitted, then releases the runtime's threads. Idempotent. A backend that
    /// does not own its threads declares `.shutdownWaitsForWork`.
    func shutdown()

    /// The pool as a Swift task executor, for async code to run on this runtime's workers; nil
    /// means Swift's default (the cooperative pool). Defaults to a `RuntimeTaskExecutor`.
    func makeTaskExecutor() -> (any TaskExecutor)?
    /// A serial queue as a Swift serial executor, for an actor's `unownedExecutor`; nil means a
    /// default actor's own executor. Defaults to a `SerialQueueExecutor` on a new serial queue.
    func makeSerialExecutor(label: String) -> (any SerialExecutor)?
}

extension ConcurrencyRuntime {
    public static var unsupported: [RuntimeBehaviour: String] { [:] }

    public static func prepareProcess() throws(RuntimeUnavailable) {}

    public func makeTaskExecutor() -> (any TaskExecutor)? { RuntimeTaskExecutor(self) }

    public func makeSerialExecutor(label: String) -> (any SerialExecutor)? {
        SerialQueueExecutor(makeSerialQueue(label: label))
    }

    /// The reason `behaviour` is not supported, or nil when it is.
    public static func reasonUnsupported(_ behaviour: RuntimeBehaviour) -> String? {
        unsupported[behaviour]
    }

    /// Calls `body` once for every index in `0..<iterations`, concurrently, in pieces chosen by
    /// `stride`, and returns when every call has returned: the pieces form with the loop over each
    /// piece done here, one indirect call per index. Code where that call matters should use
    /// `apply(iterations:stride:pieces:)` and loop over the range itself.
    /// - Precondition: `iterations >= 0`.
    @inlinable
    public func apply(iterations: Int, stride: StridePolicy, _ body: (Int) -> Void) {
        apply(
            iterations: iterations, stride: stride,
            pieces: { range in
                for index in range { body(index) }
            })
    }

    @inlinable
    public func apply(iterations: Int, stride: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction)
    {
        apply(
            iterations: iterations, stride: stride,
            pieces: { range in piece(context, range.lowerBound, range.upperBound) })
    }

    public func async(_ block: FunctionBlock) { async(block.closure) }

    public func async(group: Group, _ block: FunctionBlock) { async(group: group, block.closure) }

    /// `dispatch_group_async` as the man page defines it: enter, submit, leave when done.
    public func async(group: Group, _ work: @escaping @Sendable () -> Void) {
        group.enter()
        async {
            work()
            group.leave()
        }
    }
}

/// A concurrency runtime the suite can measure: a pool that runs blocks, plus the serial queues,
/// counting semaphores and groups built on it.
///
/// Workloads are generic over `ConcurrencyRuntime` (never `any ConcurrencyRuntime`), so the
/// compiler can specialize them per backend and the hot path carries no existential box. The
/// semantics every conformer must honour are those of the source documents in shared/seeds
/// (dispatch queues, groups, semaphores); `Tests/ConformanceTests` checks them on every backend.
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
    /// Calls `body` once for every index in `0..<iterations`, concurrently, in pieces chosen by
    /// `stride`, and returns when every call has returned. The calling thread takes part.
    /// - Precondition: `iterations >= 0`.
    func apply(iterations: Int, stride: StridePolicy, _ body: (Int) -> Void)
    /// Runs what was submitted, then releases the runtime's threads. Idempotent. A backend that
    /// does not own its threads declares `.shutdownWaitsForWork`.
    func shutdown()
}

extension ConcurrencyRuntime {
    public static var unsupported: [RuntimeBehaviour: String] { [:] }

    /// The reason `behaviour` is not supported, or nil when it is.
    public static func reasonUnsupported(_ behaviour: RuntimeBehaviour) -> String? {
        unsupported[behaviour]
    }

    /// `dispatch_group_async` as the man page defines it: enter, submit, leave when done.
    public func async(group: Group, _ work: @escaping @Sendable () -> Void) {
        group.enter()
        async {
            work()
            group.leave()
        }
    }
}

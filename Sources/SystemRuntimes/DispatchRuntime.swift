import Dispatch
import RuntimeKit

/// Backend `libdispatch`: the real libdispatch through the Swift `Dispatch` API, i.e. what Swift
/// code pays (closure-to-block conversion, the overlay's generic `sync`, reference counting of
/// the wrapper objects) on top of libdispatch itself. Compare with `libdispatch-c`.
public final class DispatchRuntime: ConcurrencyRuntime, @unchecked Sendable {
    public typealias Queue = DispatchSerialQueue
    public typealias Semaphore = DispatchCountingSemaphore
    public typealias Group = DispatchWorkGroup

    public static let id = "libdispatch"
    public static let summary =
        "libdispatch through the Swift Dispatch API (DispatchQueue, DispatchGroup, concurrentPerform)"
    public static let unsupported: [RuntimeBehaviour: String] = [
        .shutdownWaitsForWork:
            "libdispatch owns its threads: shutdown() cannot join them or wait for the global queues to drain",
        .workerCountControl: "libdispatch sizes its own thread pool; workers reports the active CPU count",
    ]

    public let workers: Int
    private let global = DispatchQueue.global()

    public init(workers: Int) {
        _ = resolvedWorkerCount(workers)  // validates the argument like every backend
        self.workers = activeProcessorCount
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        global.async(execute: work)
    }

    public func async(group: DispatchWorkGroup, _ work: @escaping @Sendable () -> Void) {
        global.async(group: group.group, execute: work)
    }

    public func makeSerialQueue(label: String) -> DispatchSerialQueue {
        DispatchSerialQueue(DispatchQueue(label: label))
    }

    public func makeSemaphore(value: Int) -> DispatchCountingSemaphore {
        DispatchCountingSemaphore(DispatchSemaphore(value: value))
    }

    public func makeGroup() -> DispatchWorkGroup { DispatchWorkGroup(DispatchGroup()) }

    /// Striding is done here, as the guide's "Improving on Loop Code" does by hand:
    /// `concurrentPerform` runs one piece per call, and each piece calls `body` once with its range.
    @_disfavoredOverload
    public func apply(iterations: Int, stride policy: StridePolicy, pieces body: (Range<Int>) -> Void) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 0 else { return }
        withoutActuallyEscaping(body) { body in
            let loop = StridedLoop(plan: plan, body: body)
            DispatchQueue.concurrentPerform(iterations: plan.pieces) { piece in loop.run(piece: piece) }
        }
    }

    /// `concurrentPerform` with the caller's piece function: each piece reads only trivial values,
    /// so no closure context is retained and released per piece from both CPUs.
    public func apply(
        iterations: Int, stride policy: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction
    ) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 0 else { return }
        let call = PieceCall(plan: plan, piece: piece, context: context)
        DispatchQueue.concurrentPerform(iterations: plan.pieces) { index in call.run(piece: index) }
    }

    public func shutdown() {}
}

public struct DispatchSerialQueue: SerialQueue {
    public let queue: DispatchQueue
    init(_ queue: DispatchQueue) { self.queue = queue }

    public var label: String { queue.label }

    public func async(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    /// Inlinable for the reason given at `CDispatchSerialQueue.sync`.
    @inlinable
    public func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        try runCapturingOutcome(work) { queue.sync(execute: $0) }
    }

    /// `DispatchQueue.sync { }` as Swift code writes it, the overlay's own cost and nothing more:
    /// the closure form above adds the outcome capture that carries a value and a typed error out,
    /// which this one leaves out.
    @inlinable
    public func sync(context: UnsafeMutableRawPointer?, _ function: WorkFunction) {
        queue.sync { function(context) }
    }
}

public struct DispatchCountingSemaphore: CountingSemaphore {
    public let semaphore: DispatchSemaphore
    init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }

    public func wait() { semaphore.wait() }

    public func wait(timeout: Duration) -> WaitResult {
        semaphore.wait(timeout: .now() + timeout.dispatchInterval) == .success ? .success : .timedOut
    }

    @discardableResult
    public func signal() -> Bool { semaphore.signal() != 0 }
}

public struct DispatchWorkGroup: WorkGroup {
    public let group: DispatchGroup
    init(_ group: DispatchGroup) { self.group = group }

    public func enter() { group.enter() }
    public func leave() { group.leave() }
    public func wait() { group.wait() }

    public func wait(timeout: Duration) -> WaitResult {
        group.wait(timeout: .now() + timeout.dispatchInterval) == .success ? .success : .timedOut
    }

    public func notify(on queue: DispatchSerialQueue, _ work: @escaping @Sendable () -> Void) {
        group.notify(queue: queue.queue, execute: work)
    }
}

extension Duration {
    var dispatchInterval: DispatchTimeInterval { .nanoseconds(Int(clamping: nanosecondsSaturating)) }
}

import CDispatch
import CDispatchShim
import RuntimeKit

/// Backend `libdispatch-c`: the real libdispatch through its C entry points (`dispatch_async_f`,
/// `dispatch_sync_f`, `dispatch_apply_f`, `dispatch_group_async_f`, semaphores): what libdispatch
/// itself costs, without the Swift overlay. The protocol's function forms (`sync(context:_:)`,
/// `async(_: FunctionBlock)`, `async(group:_:)` with a `FunctionBlock`,
/// `apply(iterations:stride:context:_:)`) pass straight through, with
/// nothing allocated or retained per call; the closure forms box the closure (an `async`) or copy
/// it to an escaping closure (a `sync`, an `apply`), as any C caller carrying Swift state must.
public final class CDispatchRuntime: ConcurrencyRuntime, @unchecked Sendable {
    public typealias Queue = CDispatchSerialQueue
    public typealias Semaphore = CDispatchSemaphore
    public typealias Group = CDispatchGroup

    public static let id = "libdispatch-c"
    public static let summary =
        "libdispatch through its C entry points (dispatch_async_f, dispatch_sync_f, dispatch_apply_f)"
    public static let unsupported: [RuntimeBehaviour: String] = DispatchRuntime.unsupported

    public let workers: Int
    private let global: dispatch_queue_t

    public init(workers: Int) {
        _ = resolvedWorkerCount(workers)
        self.workers = activeProcessorCount
        global = dispatch_get_global_queue(0, 0)  // default priority; global queues are never released
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        dispatch_async_f(global, CBlock.retain(work), CBlock.runAndRelease)
    }

    /// `dispatch_async_f` with the block's own function and context: nothing boxed.
    public func async(_ block: FunctionBlock) {
        dispatch_async_f(global, block.context, block.function)
    }

    public func async(group: CDispatchGroup, _ work: @escaping @Sendable () -> Void) {
        dispatch_group_async_f(group.group, global, CBlock.retain(work), CBlock.runAndRelease)
    }

    /// `dispatch_group_async_f` with the block's own function and context: nothing boxed.
    public func async(group: CDispatchGroup, _ block: FunctionBlock) {
        dispatch_group_async_f(group.group, global, block.context, block.function)
    }

    public func makeSerialQueue(label: String) -> CDispatchSerialQueue { CDispatchSerialQueue(label: label) }

    public func makeSemaphore(value: Int) -> CDispatchSemaphore { CDispatchSemaphore(value: value) }

    public func makeGroup() -> CDispatchGroup { CDispatchGroup() }

    /// One `dispatch_apply_f` call over the plan's pieces; each piece calls `body` once with its
    /// range.
    @_disfavoredOverload
    public func apply(iterations: Int, stride policy: StridePolicy, pieces body: (Range<Int>) -> Void) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 0 else { return }
        withoutActuallyEscaping(body) { body in
            var loop = StridedLoop(plan: plan, body: body)
            withUnsafeMutablePointer(to: &loop) { pointer in
                dispatch_apply_f(plan.pieces, global, pointer) { context, piece in
                    context!.assumingMemoryBound(to: StridedLoop.self).pointee.run(piece: piece)
                }
            }
        }
    }

    /// `dispatch_apply_f` over the plan's pieces with the caller's piece function: the context
    /// libdispatch hands each piece is a plain struct on this stack, so no closure is copied,
    /// retained or released per piece, which at small strides would cost more than the piece
    /// (Benchmarks/README.md, "What the references found").
    public func apply(
        iterations: Int, stride policy: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction
    ) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 0 else { return }
        var call = PieceCall(plan: plan, piece: piece, context: context)
        withUnsafeMutablePointer(to: &call) { pointer in
            dispatch_apply_f(plan.pieces, global, pointer) { context, index in
                context.unsafelyUnwrapped.assumingMemoryBound(to: PieceCall.self).pointee.run(piece: index)
            }
        }
    }

    public func shutdown() {}
}

/// A Swift closure carried through a C `void *context`.
enum CBlock {
    final class Box {
        let work: @Sendable () -> Void; init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }

    static func retain(_ work: @escaping @Sendable () -> Void) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(Box(work)).toOpaque()
    }

    /// The `dispatch_function_t` for a context made by `retain`: runs it once, then frees it.
    static let runAndRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
        Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().work()
    }
}

public final class CDispatchSerialQueue: SerialQueue, @unchecked Sendable {
    public let label: String
    @usableFromInline let queue: dispatch_queue_t

    init(label: String) {
        self.label = label
        queue = dispatch_queue_create(label, nil)  // NULL attribute: serial; libdispatch copies the label
    }

    deinit { rb_dispatch_release(UnsafeMutableRawPointer(queue)) }

    public func async(_ work: @escaping @Sendable () -> Void) {
        dispatch_async_f(queue, CBlock.retain(work), CBlock.runAndRelease)
    }

    /// `dispatch_async_f` with the block's own function and context: nothing boxed.
    @inlinable
    public func async(_ block: FunctionBlock) {
        dispatch_async_f(queue, block.context, block.function)
    }

    /// Inlinable so a caller in another module gets it specialized: unspecialized, each call
    /// also looks up `Result<T, E>`'s generic metadata, which costs several times what
    /// `dispatch_sync_f` does. What remains above `dispatch_sync_f`'s own cost
    /// (tools/c-reference/queue-sync.c) is `withoutActuallyEscaping`, which on this toolchain
    /// allocates when the escapable closure is captured by another. A closure cannot reach a C
    /// `void *` context without it.
    @inlinable
    public func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        try runCapturingOutcome(work) { thunk in
            withoutActuallyEscaping(thunk) { thunk in
                var call = thunk
                withUnsafeMutablePointer(to: &call) { pointer in
                    dispatch_sync_f(queue, pointer) { context in
                        context!.assumingMemoryBound(to: (() -> Void).self).pointee()
                    }
                }
            }
        }
    }

    /// `dispatch_sync_f` itself: no closure, so none of the closure form's
    /// `withoutActuallyEscaping` and outcome capture.
    @inlinable
    public func sync(context: UnsafeMutableRawPointer?, _ function: WorkFunction) {
        dispatch_sync_f(queue, context, function)
    }
}

public final class CDispatchSemaphore: CountingSemaphore, @unchecked Sendable {
    let semaphore: dispatch_semaphore_t

    init(value: Int) {
        precondition(value >= 0, "a semaphore starts with zero or more permits, got \(value)")
        semaphore = dispatch_semaphore_create(value)
    }

    /// libdispatch traps if a semaphore is freed while its value is below the initial one
    /// ("Semaphore object deallocated while in use"): balance every wait with a signal.
    deinit { rb_dispatch_release(UnsafeMutableRawPointer(semaphore)) }

    public func wait() { _ = dispatch_semaphore_wait(semaphore, DISPATCH_TIME_FOREVER) }

    public func wait(timeout: Duration) -> WaitResult {
        let deadline = dispatch_time(DISPATCH_TIME_NOW, timeout.nanosecondsSaturating)
        return dispatch_semaphore_wait(semaphore, deadline) == 0 ? .success : .timedOut
    }

    @discardableResult
    public func signal() -> Bool { dispatch_semaphore_signal(semaphore) != 0 }
}

public final class CDispatchGroup: WorkGroup, @unchecked Sendable {
    let group: dispatch_group_t

    init() { group = dispatch_group_create() }

    deinit { rb_dispatch_release(UnsafeMutableRawPointer(group)) }

    public func enter() { dispatch_group_enter(group) }
    public func leave() { dispatch_group_leave(group) }
    public func wait() { _ = dispatch_group_wait(group, DISPATCH_TIME_FOREVER) }

    public func wait(timeout: Duration) -> WaitResult {
        let deadline = dispatch_time(DISPATCH_TIME_NOW, timeout.nanosecondsSaturating)
        return dispatch_group_wait(group, deadline) == 0 ? .success : .timedOut
    }

    public func notify(on queue: CDispatchSerialQueue, _ work: @escaping @Sendable () -> Void) {
        dispatch_group_notify_f(group, queue.queue, CBlock.retain(work), CBlock.runAndRelease)
    }
}

import PThreadPrimitives
import RuntimeKit
import Synchronization

/// A dispatch queue of the FIFODispatch backend: serial (one block at a time) or concurrent
/// (blocks start in order and may overlap; barriers run alone), targeting another queue through
/// which its blocks run, up to one of the pool's root queues.
///
/// The data path: a submission is a node pushed onto the queue's `TaskList`; the push that finds
/// the list empty schedules the queue (`wakeup`): a token node goes onto the target, and whoever
/// takes the token (a worker at the root, or the target's own drainer) claims the queue and
/// drains it. A concurrent queue's drainer forwards each block to the target, holding a width
/// unit for it, so its blocks spread over the pool. Everything about who may run the queue lives
/// in one state word (`QueueState`).
public final class FIFOQueue: @unchecked Sendable {
    public enum Kind: Sendable { case serial, concurrent, root, mainRoot }

    /// The label given at creation (copied, as Swift strings are).
    public let label: String
    public let kind: Kind
    @usableFromInline let state = Atomic<UInt64>(0)
    @usableFromInline let list = TaskList()
    /// The band a token of this queue goes to when no submission asks for more.
    @usableFromInline var band: Priority { Priority(rawValue: bandValue.load(ordering: .relaxed))! }
    private let bandValue: Atomic<Int>
    @usableFromInline let pool: Unmanaged<WorkerPool>
    /// Keeps the pool alive while a user's queue is; roots are owned by the pool instead.
    private let poolOwner: WorkerPool?
    /// The current target (an unretained address; every target ever set stays retained in
    /// `targets` until this queue goes, so a thread that read an old target can still use it).
    private let targetAddress = Atomic<UInt>(0)
    private let qos: Priority?
    /// Guards `targets`, `storedContext` and `finalizer` (a pthread mutex: see tools/tsan-suppressions.txt
    /// for why not Synchronization's).
    private let objectLock = PThreadMutex()
    private var targets: [FIFOQueue] = []
    private var storedContext: UnsafeMutableRawPointer?
    private var finalizer: (@Sendable (UnsafeMutableRawPointer?) -> Void)?

    /// - Precondition: a root has a `qos` (its band) and no target.
    init(label: String, kind: Kind, qos: Priority?, target: FIFOQueue?, pool: WorkerPool) {
        self.label = label
        self.kind = kind
        self.qos = qos
        self.pool = Unmanaged.passUnretained(pool)
        switch kind {
        case .root, .mainRoot:
            precondition(
                qos != nil && target == nil, "internal error: root queue '\(label)' needs a band and no target")
            poolOwner = nil
            bandValue = Atomic(qos!.rawValue)
        case .serial, .concurrent:
            poolOwner = pool
            let target = target ?? pool.root(qos ?? .default)
            bandValue = Atomic((qos ?? target.band).rawValue)
            targets.append(target)
            targetAddress.store(UInt(bitPattern: Unmanaged.passUnretained(target).toOpaque()), ordering: .releasing)
        }
    }

    deinit {
        precondition(
            !QueueState.isSuspended(state.load(ordering: .relaxed)) || list.isEmpty,
            "queue '\(label)' was released while suspended with blocks in it: they could never run")
        if let finalizer, let context = storedContext, let target = targets.last {
            // Like dispatch_set_finalizer_f: on the target queue, after the last block and
            // reference, and only when there is a context to finalize (libdispatch skips it
            // when the context is NULL).
            let box = UnsafeSendable(context)
            target.async { finalizer(box.value) }
        }
    }

    /// The queue this one's blocks run through; nil for roots.
    public var target: FIFOQueue? {
        let address = targetAddress.load(ordering: .acquiring)
        guard address != 0 else { return nil }
        return Unmanaged<FIFOQueue>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
    }

    /// The target of a queue that has one (not a root).
    @inlinable
    var targetUnretained: Unmanaged<FIFOQueue> { Self.unretained(targetAddressValue) }

    /// The queue at a non-zero target address.
    @inlinable
    static func unretained(_ address: UInt) -> Unmanaged<FIFOQueue> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
    }

    @usableFromInline
    var targetAddressValue: UInt { targetAddress.load(ordering: .acquiring) }

    @usableFromInline
    var isRoot: Bool { kind == .root || kind == .mainRoot }

    /// The state word and list, for diagnosing a stuck queue.
    var debugState: String {
        let s = state.load(ordering: .sequentiallyConsistent)
        var flags: [String] = []
        if s & QueueState.locked != 0 { flags.append("LOCKED") }
        if s & QueueState.enqueued != 0 { flags.append("ENQUEUED") }
        if s & QueueState.dirty != 0 { flags.append("DIRTY") }
        if s & QueueState.barrierWait != 0 { flags.append("BARRIER_WAIT") }
        if QueueState.isSuspended(s) { flags.append("suspended \(s & QueueState.suspendMask)") }
        if QueueState.inUse(s) > 0 { flags.append("in use \(QueueState.inUse(s))") }
        return "\(label): [\(flags.joined(separator: " "))] list \(list.isEmpty ? "empty" : "non-empty")"
    }

    // MARK: submission

    /// Appends `work`; returns at once.
    public func async(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work), kind: .block, priority: nil)
    }

    /// `dispatch_async_f`: appends `block`'s C function and context, with nothing allocated or
    /// retained (its closure form is not used).
    public func async(_ block: FunctionBlock) {
        submit(.function(block.function, block.context), kind: .block, priority: nil)
    }

    /// Appends `work` with a quality of service of its own: it does not jump the queue, but the
    /// queue runs at that priority (or higher) while `work` waits.
    public func async(qos: Priority, _ work: @escaping @Sendable () -> Void) {
        submit(.closure(work), kind: .block, priority: qos)
    }

    /// Appends `work` as a barrier: on a concurrent queue it starts after every block before it
    /// has finished and runs alone; on a serial queue it is an ordinary block.
    public func asyncBarrier(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work), kind: kind == .concurrent ? .barrier : .block, priority: nil)
    }

    /// `dispatch_group_async`: `work` is a member of `group` until it returns.
    public func async(group: FIFOGroup, qos: Priority? = nil, _ work: @escaping @Sendable () -> Void) {
        group.enterForBlock()
        // Unretained: the group keeps itself alive until this block's leave (FIFOGroup).
        submit(.groupClosure(work, .passUnretained(group)), kind: .block, priority: qos)
    }

    /// `dispatch_group_async_f`: the function, its context and the group go into the task node,
    /// with nothing allocated or retained for the block.
    public func async(group: FIFOGroup, qos: Priority? = nil, _ block: FunctionBlock) {
        group.enterForBlock()
        submit(
            .groupFunction(block.function, block.context, .passUnretained(group)), kind: .block, priority: qos)
    }

    /// Runs `work` here, then `completion` on `completionQueue` with its result (the guide's
    /// "performing a completion block when a task is done").
    public func async<T>(
        _ work: @escaping @Sendable () -> T,
        completion completionQueue: FIFOQueue,
        _ completion: @escaping @Sendable (T) -> Void
    ) {
        async {
            let result = UnsafeSendable(work())
            completionQueue.async { completion(result.value) }
        }
    }

    @inlinable
    func submit(_ payload: Payload, kind nodeKind: TaskKind, priority: Priority?) {
        #if FaultInjection
        InjectedFaults.allocateForTask()
        #endif
        let node = NodeCache.allocate()
        node.pointee.kind = nodeKind
        node.pointee.priority = priority ?? .background
        node.pointee.payload = payload
        enqueue(node)
    }

    /// Puts a node on this queue and makes sure someone will run it.
    @inlinable
    func enqueue(_ node: NodeRef) {
        switch kind {
        case .root:
            pool._withUnsafeGuaranteedRef { $0.push(node, to: self) }
        case .mainRoot:
            _ = list.push(node)
            pool._withUnsafeGuaranteedRef { $0.mainQueueHasWork() }
        case .serial, .concurrent:
            let priority = node.pointee.priority
            let wasEmpty = list.push(node)
            if wasEmpty || priority > band { wakeup(priority: priority, listWasEmpty: wasEmpty) }
        }
    }

    /// A block was added (the first into an empty list, or one that raises the queue's priority):
    /// schedule the queue unless someone else is bound to.
    @usableFromInline
    func wakeup(priority: Priority, listWasEmpty: Bool) {
        var s = state.load(ordering: .relaxed)
        while true {
            let raised = max(priority, QueueState.override(s))
            if s & QueueState.busy != 0 || !listWasEmpty {
                // Held, enqueued, suspended or waiting for a barrier: whoever ends that condition
                // schedules the queue. Note the block and its priority for them.
                let desired = QueueState.with(override: raised, s | (listWasEmpty ? QueueState.dirty : 0))
                if desired == s { return }
                let (done, current) = state.compareExchange(
                    expected: s, desired: desired, ordering: .sequentiallyConsistent)
                if done {
                    // Enqueued at a lower band than this block asks for: a second token at the
                    // higher band lets it be served there (whichever token comes first drains).
                    if s & QueueState.enqueued != 0, raised > max(band, QueueState.override(s)) {
                        pushToken(priority: raised)
                    }
                    return
                }
                s = current
                continue
            }
            let desired = QueueState.with(override: raised, (s & ~QueueState.dirty) | QueueState.enqueued)
            let (done, current) = state.compareExchange(
                expected: s, desired: desired, ordering: .sequentiallyConsistent)
            if done {
                pushToken(priority: raised)
                return
            }
            s = current
        }
    }

    /// Puts a token for this queue on its target.
    @usableFromInline
    func pushToken(priority: Priority) {
        let node = NodeCache.allocate()
        node.pointee.kind = .token
        node.pointee.priority = max(band, priority)
        node.pointee.payload = .drain(Unmanaged.passRetained(self))
        targetUnretained._withUnsafeGuaranteedRef { $0.enqueue(node) }
    }

    // MARK: draining

    /// Takes ownership from a token. False when the token is stale (another token of the same
    /// wake-up was claimed first).
    @usableFromInline
    func claim() -> Bool {
        var s = state.load(ordering: .relaxed)
        while s & QueueState.enqueued != 0 {
            let desired = QueueState.with(override: .background, (s & ~QueueState.enqueued) | QueueState.locked)
            let (done, current) = state.compareExchange(
                expected: s, desired: desired, ordering: .sequentiallyConsistent)
            if done { return true }
            s = current
        }
        return false
    }

    /// Gives up exclusive ownership. Blocks that arrived meanwhile are scheduled (a token on the
    /// target) unless the queue is suspended. With `keepDraining`, returns true instead of
    /// scheduling when blocks are waiting, and the caller still owns the queue.
    @usableFromInline
    func release(keepDraining: Bool = false) -> Bool {
        var s = state.load(ordering: .sequentiallyConsistent)
        while true {
            precondition(s & QueueState.locked != 0, "internal error: queue '\(label)' released while not held")
            if s & QueueState.dirty != 0, !QueueState.isSuspended(s) {
                // Clear DIRTY first, then look at the list. A push after that look finds DIRTY
                // clear and sets it, which fails the exchange below. Were DIRTY left set, a push
                // would see nothing to change and leave the state as it is, and the owner would
                // go idle with that block in the list.
                let (done, current) = state.compareExchange(
                    expected: s, desired: s & ~QueueState.dirty, ordering: .sequentiallyConsistent)
                s = done ? s & ~QueueState.dirty : current
                continue
            }
            let waiting = !list.isEmpty
            var desired: UInt64
            var schedule = false
            if QueueState.isSuspended(s) {
                // DIRTY is kept even if the list looks empty: a push may have found it set
                // already. At worst the resume schedules a drain that finds nothing.
                desired = (s & ~QueueState.locked) | (waiting ? QueueState.dirty : 0)
            } else if waiting {
                if keepDraining { return true }
                desired = (s & ~QueueState.locked) | QueueState.enqueued
                schedule = true
            } else {
                desired = QueueState.with(override: .background, s & ~QueueState.locked)
            }
            let (done, current) = state.compareExchange(
                expected: s, desired: desired, ordering: .sequentiallyConsistent)
            if done {
                if schedule { pushToken(priority: QueueState.override(s)) }
                return false
            }
            s = current
        }
    }

    /// A block that held one width unit of this concurrent queue finished.
    @usableFromInline
    func memberFinished() {
        let after = state.wrappingSubtract(QueueState.inUseOne, ordering: .sequentiallyConsistent).newValue
        guard QueueState.inUse(after) == 0, after & QueueState.barrierWait != 0 else { return }
        var s = after
        while s & QueueState.barrierWait != 0, QueueState.inUse(s) == 0 {
            let schedule = !QueueState.isSuspended(s) && s & (QueueState.locked | QueueState.enqueued) == 0
            let desired =
                schedule
                ? (s & ~(QueueState.barrierWait | QueueState.dirty)) | QueueState.enqueued
                : s & ~QueueState.barrierWait
            let (done, current) = state.compareExchange(
                expected: s, desired: desired, ordering: .sequentiallyConsistent)
            if done {
                if schedule { pushToken(priority: QueueState.override(s)) }
                return
            }
            s = current
        }
    }

    // MARK: suspension

    /// Stops the queue from starting blocks (a block already running finishes). Counted: two
    /// suspends need two resumes.
    public func suspend() {
        let before = state.add(QueueState.suspendOne, ordering: .sequentiallyConsistent).oldValue
        precondition(
            before & QueueState.suspendMask != QueueState.suspendMask,
            "queue '\(label)' suspended 65,535 times without a resume")
    }

    /// Undoes one `suspend`. The last one lets the queue run its waiting blocks.
    /// - Precondition: the queue is suspended.
    public func resume() {
        var s = state.load(ordering: .relaxed)
        while true {
            precondition(
                QueueState.isSuspended(s),
                "resume of queue '\(label)', which is not suspended: more resumes than suspends")
            var desired = s - QueueState.suspendOne
            let schedule =
                !QueueState.isSuspended(desired) && desired & QueueState.dirty != 0
                && desired & (QueueState.locked | QueueState.enqueued | QueueState.barrierWait) == 0
            if schedule { desired = (desired & ~QueueState.dirty) | QueueState.enqueued }
            let (done, current) = state.compareExchange(
                expected: s, desired: desired, ordering: .sequentiallyConsistent)
            if done {
                if schedule { pushToken(priority: QueueState.override(s)) }
                return
            }
            s = current
        }
    }

    // MARK: targets

    /// Makes `newTarget` the queue through which this queue's blocks run, from the next time the
    /// queue is scheduled (a block already running, or a queue already scheduled on the old
    /// target, finishes there).
    /// - Precondition: `newTarget` is not this queue and does not run through it (no cycle), and
    ///   this queue is not a root.
    public func setTarget(_ newTarget: FIFOQueue) {
        precondition(!isRoot, "setTarget on a root queue ('\(label)'): the global and main queues have no target")
        var ancestor: FIFOQueue? = newTarget
        while let queue = ancestor {
            precondition(
                queue !== self,
                queue === newTarget
                    ? "setTarget: queue '\(label)' cannot be its own target"
                    : "setTarget: queue '\(newTarget.label)' runs through '\(label)' already; "
                        + "targeting it would make a cycle")
            ancestor = queue.target
        }
        objectLock.withLock { targets.append(newTarget) }
        bandValue.store((qos ?? newTarget.band).rawValue, ordering: .relaxed)
        targetAddress.store(UInt(bitPattern: Unmanaged.passUnretained(newTarget).toOpaque()), ordering: .releasing)
    }

    // MARK: context and finalizer

    /// An application-defined pointer kept with the queue (`dispatch_set_context`).
    public var context: UnsafeMutableRawPointer? {
        get { objectLock.withLock { storedContext } }
        set { objectLock.withLock { storedContext = newValue } }
    }

    /// Called once with the context after the last reference to the queue is gone and its last
    /// block has run, on the queue's target (`dispatch_set_finalizer_f`); not called when the
    /// context is nil then.
    public func setFinalizer(_ finalizer: @escaping @Sendable (UnsafeMutableRawPointer?) -> Void) {
        objectLock.withLock { self.finalizer = finalizer }
    }
}

/// Carries a value the caller promises to hand over, not share, across a thread boundary.
@usableFromInline
struct UnsafeSendable<T>: @unchecked Sendable {
    @usableFromInline let value: T
    @inlinable init(_ value: T) { self.value = value }
}

import CFIFODispatch
import PThreadPrimitives

/// Running nodes: a block, a queue's token (drain that queue), or a `sync` waiter (hand it the
/// queue). The same code runs at the root (a worker) and inside a drain (a queue targeting
/// another queue), with `within` the frames the running thread holds.
enum Executor {
    /// Runs one node taken off a list. The node is recycled before its block runs, so a block that
    /// submits again reuses it.
    @usableFromInline
    static func execute(_ node: NodeRef, within frame: UnsafeMutablePointer<DrainFrame>?) -> DrainOutcome {
        guard let owner = node.pointee.widthOwner else { return run(node, within: frame) }
        node.pointee.widthOwner = nil
        // A concurrent queue forwarded this node holding one width unit for it: while it runs the
        // thread is "in" that queue (labels, deadlock checks), and when it ends the unit is freed.
        var member = DrainFrame(queue: owner, hold: .member, parent: frame)
        let outcome = withUnsafeMutablePointer(to: &member) { run(node, within: $0) }
        if outcome == .finished { owner._withUnsafeGuaranteedRef { $0.memberFinished() } }
        owner.release()
        return outcome
    }

    private static func run(_ node: NodeRef, within frame: UnsafeMutablePointer<DrainFrame>?) -> DrainOutcome {
        switch node.pointee.takePayload() {
        case .closure(let work):
            NodeCache.recycle(node)
            DrainFrame.setCurrent(frame)
            work()
            return .finished
        case .function(let function, let context):
            NodeCache.recycle(node)
            DrainFrame.setCurrent(frame)
            function(context)
            return .finished
        case .groupFunction(let function, let context, let group):
            NodeCache.recycle(node)
            DrainFrame.setCurrent(frame)
            function(context)
            group._withUnsafeGuaranteedRef { $0.leave() }
            return .finished
        case .groupClosure(let work, let group):
            NodeCache.recycle(node)
            DrainFrame.setCurrent(frame)
            work()
            group._withUnsafeGuaranteedRef { $0.leave() }
            return .finished
        case .drain(let queue):
            NodeCache.recycle(node)
            defer { queue.release() }
            let target = queue.takeUnretainedValue()
            guard target.claim() else { return .finished }  // a second token of one wake-up
            return target.drain(within: frame)
        case .waiter(let waiter):
            NodeCache.recycle(node)
            waiter.takeRetainedValue().handOff(holding: frame)
            return .handedOff
        case .forwarded(let inner):
            // `frame` holds the outer queue's width unit; the inner node holds its own inside it.
            NodeCache.recycle(node)
            return execute(inner, within: frame)
        case .none:
            preconditionFailure("a task node was run twice, or run before it was filled")
        }
    }
}

extension FIFOQueue {
    /// Blocks run per drain before the queue goes to the back of its target, so one busy queue
    /// cannot keep a worker (or its target) from everything else.
    static let drainBudget = 256

    /// Runs the queue's blocks; the caller has claimed the queue (holds its lock).
    @usableFromInline
    func drain(within parent: UnsafeMutablePointer<DrainFrame>?) -> DrainOutcome {
        RuntimeEvents.count(.drains)
        var frame = DrainFrame(queue: Unmanaged.passUnretained(self), hold: .lock, parent: parent)
        return withUnsafeMutablePointer(to: &frame) { frame in
            kind == .concurrent ? drainConcurrent(frame) : drainSerial(frame)
        }
    }

    private func drainSerial(_ frame: UnsafeMutablePointer<DrainFrame>) -> DrainOutcome {
        var budget = Self.drainBudget
        while true {
            // "Suspension is checked prior to block execution and is not preemptive."
            while budget > 0, !QueueState.isSuspended(state.load(ordering: .relaxed)), let node = list.pop() {
                budget -= 1
                if Executor.execute(node, within: frame) == .handedOff { return .handedOff }
                if HandOff.hasPending, !runHandedOff(frame) {
                    // A job hopped to another queue: give this one up now (what waits here is
                    // scheduled again) so the worker's root runs that job next (HandOff).
                    budget = 0
                }
            }
            if !release(keepDraining: budget > 0) { return .finished }
        }
    }

    /// Runs the jobs handed to this very queue (two actors on one executor) in place, while
    /// nothing else waits in its list, so they keep their order behind it; false when a job
    /// is still pending, for another queue or behind waiting blocks.
    private func runHandedOff(_ frame: UnsafeMutablePointer<DrainFrame>) -> Bool {
        while list.isEmpty, let pending = HandOff.takePending(for: self) {
            RuntimeEvents.count(.handOffs)
            DrainFrame.setCurrent(frame)
            HandOff.run(pending.job, on: self, onPool: pending.onPool)
        }
        if let pending = HandOff.takePending(for: self) { submitJob(pending.job, onPool: pending.onPool) }
        return !HandOff.hasPending
    }

    /// A node of its own around `inner`, which a concurrent queue below this one forwarded.
    private static func wrapping(_ inner: NodeRef) -> NodeRef {
        let node = NodeCache.allocate()
        node.pointee.kind = inner.pointee.kind
        node.pointee.priority = inner.pointee.priority
        node.pointee.payload = .forwarded(inner)
        return node
    }

    /// A concurrent queue's drain starts blocks, it does not run them: each non-barrier block goes
    /// to the target holding one width unit, so blocks start in FIFO order and overlap. A barrier
    /// runs here, once no block of the queue is running; if some are, the drain stops and marks
    /// BARRIER_WAIT, and the last of them to finish schedules the queue again.
    private func drainConcurrent(_ frame: UnsafeMutablePointer<DrainFrame>) -> DrainOutcome {
        var budget = Self.drainBudget
        while true {
            while budget > 0 {
                var s = state.load(ordering: .sequentiallyConsistent)
                guard !QueueState.isSuspended(s), let node = list.first() else { break }
                if node.pointee.kind.isBarrier {
                    while QueueState.inUse(s) > 0 {
                        let desired = (s & ~QueueState.locked) | QueueState.barrierWait | QueueState.dirty
                        let (done, current) = state.compareExchange(
                            expected: s, desired: desired, ordering: .sequentiallyConsistent)
                        if done { return .finished }
                        s = current
                    }
                    _ = list.pop()
                    budget -= 1
                    if Executor.execute(node, within: frame) == .handedOff { return .handedOff }
                } else {
                    _ = list.pop()
                    budget -= 1
                    state.wrappingAdd(QueueState.inUseOne, ordering: .sequentiallyConsistent)
                    // A node that holds a unit of a concurrent queue below this one already is
                    // wrapped, not overwritten: overwriting lost that queue's unit for good (its
                    // barriers then waited forever) and leaked its retain.
                    let forwarded = node.pointee.widthOwner == nil ? node : Self.wrapping(node)
                    forwarded.pointee.widthOwner = Unmanaged.passRetained(self)
                    targetUnretained._withUnsafeGuaranteedRef { $0.enqueue(forwarded) }
                }
            }
            if !release(keepDraining: budget > 0) { return .finished }
        }
    }
}

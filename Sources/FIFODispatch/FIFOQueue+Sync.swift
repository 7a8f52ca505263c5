import CFIFODispatch
import PThreadPrimitives
import RuntimeKit
import Synchronization

extension FIFOQueue {
    /// Runs `work` on the calling thread once every block submitted before it has finished, with
    /// the queue held (on a concurrent queue: alongside its other blocks, but after every barrier
    /// before it). On an idle queue whose target is a root this is one compare-and-exchange to
    /// acquire and one to release.
    /// - Precondition: the caller is not running on this queue, nor on a serial queue this one
    ///   runs through (that is a deadlock, and traps saying so).
    @inlinable @inline(__always)
    public func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        try sync(exclusive: kind != .concurrent, work)
    }

    /// `sync` as a barrier: on a concurrent queue, runs alone.
    @inlinable
    public func syncBarrier<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T {
        try sync(exclusive: true, work)
    }

    /// Always inlined: the fast path is a few instructions around the caller's block, and left to
    /// the optimizer's judgement inside a caller's closure it stays out of line, with its frame
    /// setup in another call that costs more than the fast path itself (README.md, "Sync
    /// hand-off").
    @inlinable @inline(__always)
    func sync<T, E: Error>(exclusive: Bool, _ work: () throws(E) -> T) throws(E) -> T {
        #if FaultInjection
        InjectedFaults.delayFIFOSync()
        #endif
        let outer = DrainFrame.current
        if let outer { checkNoDeadlock(exclusive: exclusive, holding: outer) }
        if isRootChild, tryAcquire(exclusive: exclusive, guessingIdle: true) {
            return try runAcquired(exclusive: exclusive, outer: outer, work)
        }
        return try syncSlowly(exclusive: exclusive, outer: outer, work)
    }

    /// Runs `work` on a root child this thread has just acquired (`tryAcquire`), then releases it.
    @inlinable @inline(__always)
    func runAcquired<T, E: Error>(
        exclusive: Bool, outer: UnsafeMutablePointer<DrainFrame>?, _ work: () throws(E) -> T
    ) throws(E) -> T {
        var frame = DrainFrame(queue: Unmanaged.passUnretained(self), hold: exclusive ? .lock : .member, parent: outer)
        return try withUnsafeMutablePointer(to: &frame) { (frame) throws(E) -> T in
            DrainFrame.setCurrent(frame)
            defer {
                DrainFrame.setCurrent(outer)
                if exclusive { releaseAfterSync() } else { memberFinished() }
            }
            return try work()
        }
    }

    /// A queue the fast path can take at once (and an actor hop be handed): its target is a root.
    @inlinable
    var isRootChild: Bool {
        let target = targetAddressValue
        return target != 0 && Self.unretained(target)._withUnsafeGuaranteedRef { $0.isRoot }
    }

    /// A global queue is concurrent and has no state to take: the block runs at once on the
    /// caller, beside any other caller's (libdispatch does the same), with the root as the
    /// thread's current queue for labels.
    @usableFromInline
    func syncOnRoot<T, E: Error>(outer: UnsafeMutablePointer<DrainFrame>?, _ work: () throws(E) -> T) throws(E) -> T {
        var frame = DrainFrame(queue: Unmanaged.passUnretained(self), hold: .member, parent: outer)
        return try withUnsafeMutablePointer(to: &frame) { (frame) throws(E) -> T in
            DrainFrame.setCurrent(frame)
            defer { DrainFrame.setCurrent(outer) }
            return try work()
        }
    }

    /// One try at the state a sync may start from: idle for an exclusive sync; for a concurrent
    /// member, nothing queued, held, waiting or suspended. `guessingIdle` (the fast path's first
    /// try) starts an exclusive sync's compare-and-exchange from idle without a load: with another
    /// thread taking the same queue, the load fetched the state's line shared and the exchange
    /// then had to take it again, two transfers for one acquire. A poll must not guess: a failed
    /// exchange takes the line from the holder as a write would.
    @inlinable
    func tryAcquire(exclusive: Bool, guessingIdle: Bool = false) -> Bool {
        var s = exclusive && guessingIdle ? 0 : state.load(ordering: .relaxed)
        while true {
            let desired: UInt64
            if exclusive {
                guard QueueState.isIdle(s) else { return false }
                desired = s | QueueState.locked
            } else {
                guard s & (QueueState.busy | QueueState.dirty) == 0 else { return false }
                desired = s + QueueState.inUseOne
            }
            let (done, current) = state.compareExchange(
                expected: s, desired: desired, ordering: .sequentiallyConsistent)
            if done { return true }
            s = current
        }
    }

    /// Releases a lock taken from idle. If nothing changed meanwhile the state is exactly LOCKED
    /// and one exchange ends it: a block pushed meanwhile into the (then empty) list either set
    /// DIRTY already, making the exchange fail, or will find the queue idle and schedule it.
    @inlinable
    func releaseAfterSync() {
        if state.compareExchange(expected: QueueState.locked, desired: 0, ordering: .sequentiallyConsistent).exchanged {
            return
        }
        _ = release()
    }

    /// The general path: take every queue on the way to the root if they are all free at once
    /// (a queue targeting a serial queue holds that one too), else wait in line.
    @usableFromInline
    func syncSlowly<T, E: Error>(exclusive: Bool, outer: UnsafeMutablePointer<DrainFrame>?, _ work: () throws(E) -> T)
        throws(E) -> T
    {
        // A global queue (no target) is not a slow sync: it runs at once, uncounted.
        if targetAddressValue == 0 { return try syncOnRoot(outer: outer, work) }
        // Only the slow path counts: counting the fast one is a measurable share of a fast sync
        // (README.md, "Events"), and every sync not counted here was fast.
        RuntimeEvents.count(.syncSlow)
        // Held by another sync or a short drain, the queue is often free again within a
        // microsecond, sooner than a waiter in line is handed it: a hand-off wakes a worker to
        // drain and then this thread, two trips through the kernel (README.md, "Contended sync").
        // Polling takes it only from idle, as the fast path does, so nothing queued is overtaken.
        if isRootChild,
            pool._withUnsafeGuaranteedRef({ $0.syncPolls.pollForLock(until: { tryAcquire(exclusive: exclusive) }) })
        {
            return try runAcquired(exclusive: exclusive, outer: outer, work)
        }
        var chain: [(queue: Unmanaged<FIFOQueue>, hold: DrainFrame.Hold)] = []
        var level: FIFOQueue = self
        var levelExclusive = exclusive
        var acquiredAll = true
        while !level.isRoot {
            if !level.tryAcquire(exclusive: levelExclusive) { acquiredAll = false; break }
            chain.append((Unmanaged.passRetained(level), levelExclusive ? .lock : .member))
            guard let next = level.target else { break }
            levelExclusive = next.kind == .serial
            level = next
        }
        if !acquiredAll {
            Self.release(chain)
            chain = waitInLine(exclusive: exclusive)
        }
        return try withFrames(chain, outer: outer) { () throws(E) -> T in
            defer { Self.release(chain) }
            return try work()
        }
    }

    /// Puts a waiter in the list and sleeps until a drainer hands it the queue.
    private func waitInLine(exclusive: Bool) -> [(queue: Unmanaged<FIFOQueue>, hold: DrainFrame.Hold)] {
        let waiter = SyncWaiter()
        let node = NodeCache.allocate()
        node.pointee.kind = exclusive && kind == .concurrent ? .syncBarrierWaiter : .syncWaiter
        node.pointee.priority = .background
        node.pointee.payload = .waiter(Unmanaged.passRetained(waiter))
        enqueue(node)
        pool._withUnsafeGuaranteedRef { $0.whileBlocking { waiter.waitForTurn() } }
        return waiter.holds
    }

    /// Releases what a sync held, innermost first (each release may schedule the queue on the
    /// next one out, which is still held, so it only notes the block), and drops the retains.
    static func release(_ chain: [(queue: Unmanaged<FIFOQueue>, hold: DrainFrame.Hold)]) {
        for (queue, hold) in chain {
            switch hold {
            case .lock: _ = queue.takeUnretainedValue().release()
            case .member: queue.takeUnretainedValue().memberFinished()
            }
            queue.release()
        }
    }

    /// Runs `body` with `chain` pushed as this thread's frames.
    private func withFrames<T, E: Error>(
        _ chain: [(queue: Unmanaged<FIFOQueue>, hold: DrainFrame.Hold)],
        outer: UnsafeMutablePointer<DrainFrame>?,
        _ body: () throws(E) -> T
    ) throws(E) -> T {
        let frames = UnsafeMutablePointer<DrainFrame>.allocate(capacity: max(1, chain.count))
        defer { frames.deallocate() }
        for index in chain.indices.reversed() {
            let parent = index == chain.count - 1 ? outer : frames + index + 1
            (frames + index).initialize(
                to: DrainFrame(queue: chain[index].queue, hold: chain[index].hold, parent: parent))
        }
        DrainFrame.setCurrent(chain.isEmpty ? outer : frames)
        defer { DrainFrame.setCurrent(outer) }
        return try body()
    }

    /// Traps when this thread already holds what the sync needs: the queue itself, or a serial
    /// queue it runs through (or, for a barrier, a width unit of the queue).
    @usableFromInline
    func checkNoDeadlock(exclusive: Bool, holding frames: UnsafeMutablePointer<DrainFrame>) {
        var level: FIFOQueue? = self
        var levelExclusive = exclusive
        while let queue = level, !queue.isRoot {
            var frame: UnsafeMutablePointer<DrainFrame>? = frames
            while let current = frame {
                if current.pointee.queue.toOpaque() == Unmanaged.passUnretained(queue).toOpaque(),
                    current.pointee.hold == .lock || levelExclusive
                {
                    let through =
                        queue === self ? "" : " (it runs through '\(queue.label)', which this thread is running)"
                    preconditionFailure(
                        "sync onto queue '\(label)' from a block running on it\(through): this deadlocks. "
                            + "Use async, or sync from another queue.")
                }
                frame = current.pointee.parent
            }
            levelExclusive = queue.target?.kind == .serial
            level = queue.target
        }
    }

    /// The label of the queue whose block the calling thread is running, or nil outside any queue
    /// (`dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL)`).
    public static var currentLabel: String? {
        DrainFrame.current?.pointee.queue.takeUnretainedValue().label
    }
}

extension FIFOQueue: SerialQueue {}

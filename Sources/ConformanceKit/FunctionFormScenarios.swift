#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// The protocol's C function forms, which the workloads use so libdispatch-c can pass them
/// straight to `dispatch_async_f` and `dispatch_apply_f`: on every runtime they must mean what the
/// closure forms mean.
enum FunctionFormScenarios {
    static let blocks = 100_000

    static let all: [ConformanceScenario] =
        [
            ConformanceScenario(
                .functionForms, "one FunctionBlock submitted 100,000 times to the runtime runs 100,000 times"
            ) {
                try runtimeBlockRunsOncePerSubmission($0)
            },
            ConformanceScenario(
                .functionForms,
                "a FunctionBlock on a serial queue: every submission runs, one at a time, before a later sync"
            ) { try serialQueueBlockRunsInTurn($0) },
            ConformanceScenario(
                .functionForms,
                """
                a group whose only references are its blocks (FunctionBlocks and closures) lives until the \
                last has run and left, and is freed after it
                """
            ) { try groupLivesWhileItsBlocksRun($0) },
        ]
        + ApplyCase.all.map { loop in
            ConformanceScenario(.functionForms, "apply with a piece function covers every index once: \(loop)") {
                try pieceFunctionCoversEveryIndexOnce($0, loop)
            }
        }

    /// Counts in an atomic behind the context; the last of `blocks` runs opens the gate.
    private final class Arrivals: @unchecked Sendable {
        let count = Atomic<Int>(0)
        let expected: Int
        let done = MutexSemaphore(value: 0)
        init(expected: Int) { self.expected = expected }

        static let arrive: WorkFunction = { context in
            let arrivals = Unmanaged<Arrivals>.fromOpaque(context!).takeUnretainedValue()
            if arrivals.count.wrappingAdd(1, ordering: .relaxed).newValue == arrivals.expected {
                arrivals.done.signal()
            }
        }
    }

    private static func runtimeBlockRunsOncePerSubmission<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let arrivals = Arrivals(expected: Self.blocks)
            let context = Unmanaged.passRetained(arrivals)
            let block = FunctionBlock(context: context.toOpaque(), Arrivals.arrive)
            for _ in 0..<Self.blocks { runtime.async(block) }
            // Released only once every block has run: a scenario that gives up leaves its context
            // to the blocks still queued. Freed at the end of this scope instead, it was read by one
            // of them afterwards and the whole test process crashed (swift-concurrency, whose pool
            // other tests held past the wait).
            try require(
                arrivals.done.wait(timeout: Conformance.patience) == .success,
                "\(arrivals.count.load(ordering: .relaxed)) of \(Self.blocks) submissions ran within "
                    + "\(Conformance.patience)")
            context.release()
            // Give a block that would run twice the time to show itself, then count again.
            let settle = runtime.makeGroup()
            runtime.async(group: settle) {}
            settle.wait()
            try require(
                arrivals.count.load(ordering: .relaxed) == Self.blocks,
                "\(arrivals.count.load(ordering: .relaxed)) runs for \(Self.blocks) submissions")
        }
    }

    /// A plain counter behind the context, written only by the queue's blocks: the queue's own
    /// ordering is all that keeps the increments from racing (ThreadSanitizer would report it),
    /// and a `sync` behind them sees every one.
    private static func serialQueueBlockRunsInTurn<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let queue = runtime.makeSerialQueue(label: "function blocks")
            let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            counter.initialize(to: 0)
            defer { counter.deallocate() }
            let block = FunctionBlock(context: counter) { context in
                context!.assumingMemoryBound(to: Int.self).pointee += 1
            }
            for _ in 0..<Self.blocks { queue.async(block) }
            let seen = queue.sync { counter.pointee }
            try require(seen == Self.blocks, "a sync after \(Self.blocks) blocks saw \(seen) of them run")
        }
    }

    /// Blocks that wait at a gate, then count themselves.
    private final class Gate: @unchecked Sendable {
        let open = Atomic<Bool>(false)
        let ran = Atomic<Int>(0)

        static let passThenArrive: WorkFunction = { context in
            let gate = Unmanaged<Gate>.fromOpaque(context!).takeUnretainedValue()
            gate.passThenArrive()
        }

        func passThenArrive() {
            while !open.load(ordering: .acquiring) { sched_yield() }
            ran.wrappingAdd(1, ordering: .relaxed)
        }
    }

    private final class WeakReference: @unchecked Sendable {
        weak var object: AnyObject?
    }

    /// The submitter lets go of the group while its blocks are still queued, so only they (or the
    /// runtime on their behalf) keep it: our groups do not retain it per block, but hold
    /// themselves while they have block members. A group freed too early is written to by the
    /// blocks' leaves after it is gone (AddressSanitizer's run reports it; here it usually traps
    /// as an unbalanced leave); one never let go leaks, which the weak reference shows.
    private static func groupLivesWhileItsBlocksRun<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let gate = Gate(), perForm = 4
            // Released once every block has run, as in `runtimeBlockRunsOncePerSubmission`.
            let context = Unmanaged.passRetained(gate)
            let block = FunctionBlock(context: context.toOpaque(), Gate.passThenArrive)
            let groupReference = WeakReference()
            do {
                let group = runtime.makeGroup()
                groupReference.object = group as AnyObject
                for _ in 0..<perForm {
                    runtime.async(group: group, block)
                    runtime.async(group: group) { gate.passThenArrive() }
                }
            }
            gate.open.store(true, ordering: .releasing)
            try require(
                holds(within: Conformance.patience) { gate.ran.load(ordering: .relaxed) == 2 * perForm },
                "\(gate.ran.load(ordering: .relaxed)) of \(2 * perForm) blocks of a group let go of ran within "
                    + "\(Conformance.patience)")
            context.release()
            // The last leave releases the group's hold after its block counted itself.
            try require(
                holds(within: .seconds(10)) { groupReference.object == nil },
                "the group was still alive 10 s after its last block ran: its hold on itself leaked")
        }
    }

    /// Whether `condition` holds within `timeout`, looked at every 200 µs.
    private static func holds(within timeout: Duration, _ condition: () -> Bool) -> Bool {
        let giveUp = MonotonicInstant.after(timeout)
        while !condition() {
            if MonotonicInstant.now >= giveUp { return false }
            usleep(200)
        }
        return true
    }

    private static func pieceFunctionCoversEveryIndexOnce<R: ConcurrencyRuntime>(_ type: R.Type, _ loop: ApplyCase)
        throws
    {
        try withRuntime(type) { runtime in
            let ledger = RunLedger(count: loop.iterations)
            runtime.apply(
                iterations: loop.iterations, stride: loop.stride, context: Unmanaged.passUnretained(ledger).toOpaque()
            ) {
                context, lower, upper in
                let ledger = Unmanaged<RunLedger>.fromOpaque(context!).takeUnretainedValue()
                for index in lower..<upper { ledger.record(index) }
            }
            try require(ledger.mistakes() == nil, ledger.mistakes() ?? "")
        }
    }
}

import PThreadPrimitives
import RuntimeKit
import Synchronization

/// Every blocking operation of the protocol, with every worker blocked in it or busy: the
/// situation where a pool that needs a free worker to make progress deadlocks. Each scenario
/// repeats `Conformance.blockingRounds` times on one runtime, because a hand-off that needs a race
/// to go wrong fails in some rounds only; the watchdog in `runScenario` turns a hang into a
/// failure that names the operation and the runtime.
enum BlockingScenarios {
    static let all: [ConformanceScenario] =
        [
            ConformanceScenario(
                .blocking,
                "sync: every worker waits on a queue with blocks queued ahead of them",
                requires: [.blockingWaitInsideWork]
            ) { try syncBehindQueuedBlocks($0) },
            ConformanceScenario(
                .blocking,
                "nested sync: blocks on two queues each sync onto a third whose block syncs onto a fourth",
                requires: [.blockingWaitInsideWork]
            ) { try nestedSync($0) },
            ConformanceScenario(
                .blocking,
                "async then sync onto one queue from every worker at once",
                requires: [.blockingWaitInsideWork]
            ) { try asyncThenSync($0) },
        ]
        + [StridePolicy.fixed(1), .fixed(5), .automatic].map { stride in
            ConformanceScenario(
                .blocking, "apply (stride \(stride)) from outside the pool returns while every worker is busy"
            ) {
                try applyFromOutsideEveryWorkerBusy($0, stride: stride)
            }
        }
        + [StridePolicy.fixed(1), .automatic].map { stride in
            ConformanceScenario(
                .blocking, "apply (stride \(stride)) from a block returns while every other worker is busy"
            ) {
                try applyFromInsideOtherWorkersBusy($0, stride: stride)
            }
        }
        + [
            ConformanceScenario(
                .blocking,
                "group wait: every worker waits for a member still queued",
                requires: [.blockingWaitInsideWork, .waitWithEveryWorkerWaiting]
            ) { try groupWaitEveryWorkerWaiting($0) },
            ConformanceScenario(
                .blocking,
                "semaphore wait: every worker waits for a signal a queued block sends",
                requires: [.blockingWaitInsideWork, .waitWithEveryWorkerWaiting]
            ) { try semaphoreWaitEveryWorkerWaiting($0) },
            ConformanceScenario(
                .blocking,
                "a wait the runtime cannot see: every worker blocks on a plain condition a queued block opens",
                requires: [.waitUnseenByRuntime]
            ) { try unseenWaitEveryWorkerBlocked($0) },
            ConformanceScenario(
                .blocking,
                "apply inside sync, from every worker at once",
                requires: [.blockingWaitInsideWork]
            ) { try applyInsideSync($0) },
            ConformanceScenario(
                .blocking,
                "sync inside the pieces of an apply from outside",
                requires: [.blockingWaitInsideWork]
            ) { try syncInsideApply($0) },
            ConformanceScenario(
                .blocking,
                "group wait inside sync, from every worker at once",
                requires: [.blockingWaitInsideWork, .waitWithEveryWorkerWaiting]
            ) { try groupWaitInsideSync($0) },
        ]

    /// The outside thread holds the queue, puts a block on it, and lets every worker's `sync`
    /// line up behind that block before it lets go: the block and every `sync` must then run
    /// with no worker free to run a drain job.
    private static func syncBehindQueuedBlocks<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let queue = runtime.makeSerialQueue(label: "contended-\(round)")
                let order = Unsynchronized<[Int]>([])
                let crew = Crew(size: runtime.workers)
                queue.sync {
                    queue.async { order.value.append(-1) }
                    crew.start(on: runtime) { member in queue.sync { order.value.append(member) } }
                    crew.waitUntilStarted()
                    sleepBriefly(milliseconds: 1)  // most of them reach the wait; the scenario holds either way
                }
                crew.waitUntilFinished()
                let seen = queue.sync { order.value }
                try require(
                    seen.first == -1, "round \(round): a sync ran before the block queued ahead of it (order \(seen))")
                try require(
                    seen.dropFirst().sorted() == Array(0..<runtime.workers),
                    "round \(round): the syncs did not each run once (order \(seen))")
            }
        }
    }

    /// The scenario: a third and a fourth queue, nested `sync` onto them from blocks on
    /// as many other queues as there are workers, thousands of times each.
    private static func nestedSync<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let repetitions = 2_000
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let third = runtime.makeSerialQueue(label: "third"), fourth = runtime.makeSerialQueue(label: "fourth")
                let tally = Unsynchronized(0)  // written only inside fourth's blocks
                let crew = Crew(size: runtime.workers)
                let outer = (0..<runtime.workers).map { runtime.makeSerialQueue(label: "outer-\($0)") }
                crew.start(onQueues: outer) { _ in
                    for _ in 0..<repetitions {
                        third.sync { fourth.sync { tally.value += 1 } }
                    }
                }
                crew.waitUntilFinished()
                let total = fourth.sync { tally.value }
                try require(
                    total == runtime.workers * repetitions,
                    "round \(round): \(total) of \(runtime.workers * repetitions) nested syncs ran")
            }
        }
    }

    /// A block queued by `async` just before a `sync` on the same queue, from every worker: the
    /// queue has a drain waiting for a worker while every worker waits in `sync`.
    private static func asyncThenSync<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let repetitions = 2_000
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let queue = runtime.makeSerialQueue(label: "async-then-sync")
                let tally = Unsynchronized(0)
                let crew = Crew(size: runtime.workers)
                crew.start(on: runtime) { _ in
                    for _ in 0..<repetitions {
                        queue.async { tally.value += 1 }
                        queue.sync { tally.value += 1 }
                    }
                }
                crew.waitUntilFinished()
                let total = queue.sync { tally.value }
                try require(
                    total == 2 * runtime.workers * repetitions,
                    "round \(round): \(total) of \(2 * runtime.workers * repetitions) blocks ran")
            }
        }
    }

    /// Every worker runs a block that waits for a gate the caller opens only after its `apply`
    /// returns: the caller must run the loop itself.
    private static func applyFromOutsideEveryWorkerBusy<R: ConcurrencyRuntime>(_ type: R.Type, stride: StridePolicy)
        throws
    {
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let gate = Gate()
                let crew = Crew(size: runtime.workers)
                crew.start(on: runtime) { _ in gate.pass() }
                crew.waitUntilStarted()
                let ledger = RunLedger(count: 32)
                runtime.apply(iterations: 32, stride: stride) { ledger.record($0) }
                gate.open()
                crew.waitUntilFinished()
                try require(ledger.mistakes() == nil, "round \(round): " + (ledger.mistakes() ?? ""))
            }
        }
    }

    /// One block applies while every other worker waits for a gate opened after that apply.
    private static func applyFromInsideOtherWorkersBusy<R: ConcurrencyRuntime>(_ type: R.Type, stride: StridePolicy)
        throws
    {
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let gate = Gate()
                let busy = Crew(size: max(0, runtime.workers - 1))
                busy.start(on: runtime) { _ in gate.pass() }
                busy.waitUntilStarted()
                let ledger = RunLedger(count: 64)
                let applier = Crew(size: 1)
                applier.start(on: runtime) { _ in
                    runtime.apply(iterations: 64, stride: stride) { ledger.record($0) }
                    gate.open()
                }
                applier.waitUntilFinished()
                busy.waitUntilFinished()
                try require(ledger.mistakes() == nil, "round \(round): " + (ledger.mistakes() ?? ""))
            }
        }
    }

    /// Every worker waits at a gate (a mutex and condition: no runtime sees it) that only a block
    /// queued after them opens: the runtime must notice its stalled pool and add a thread.
    private static func unseenWaitEveryWorkerBlocked<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let gate = Gate()
                let opened = Atomic<Int>(0)
                let crew = Crew(size: runtime.workers)
                crew.start(on: runtime) { _ in gate.pass() }
                crew.waitUntilStarted()
                runtime.async {
                    opened.add(1, ordering: .relaxed)
                    gate.open()
                }
                crew.waitUntilFinished()
                try require(
                    opened.load(ordering: .relaxed) == 1,
                    "round \(round): the gate's block ran \(opened.load(ordering: .relaxed)) times")
            }
        }
    }

    /// The group is held open by the caller while every worker waits on it; then one member is
    /// queued and the caller's hold released: only that member, still queued, can empty it.
    private static func groupWaitEveryWorkerWaiting<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let group = runtime.makeGroup()
                let memberRuns = Atomic<Int>(0)
                group.enter()
                let crew = Crew(size: runtime.workers)
                crew.start(on: runtime) { _ in group.wait() }
                crew.waitUntilStarted()
                sleepBriefly(milliseconds: 1)
                runtime.async(group: group) { memberRuns.add(1, ordering: .relaxed) }
                group.leave()
                crew.waitUntilFinished()
                try require(
                    memberRuns.load(ordering: .relaxed) == 1,
                    "round \(round): the queued member ran \(memberRuns.load(ordering: .relaxed)) times")
            }
        }
    }

    private static func semaphoreWaitEveryWorkerWaiting<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let semaphore = runtime.makeSemaphore(value: 0)
                let woken = Atomic<Int>(0)
                let crew = Crew(size: runtime.workers)
                crew.start(on: runtime) { _ in
                    semaphore.wait()
                    woken.add(1, ordering: .relaxed)
                }
                crew.waitUntilStarted()
                sleepBriefly(milliseconds: 1)
                let waiters = runtime.workers
                runtime.async { for _ in 0..<waiters { semaphore.signal() } }
                crew.waitUntilFinished()
                try require(
                    woken.load(ordering: .relaxed) == waiters,
                    "round \(round): \(woken.load(ordering: .relaxed)) of \(waiters) waiters returned")
            }
        }
    }

    /// Every worker syncs onto one queue and, holding it, applies: the workers not holding the
    /// queue wait in `sync`, so the apply's caller is the only thread free to run its loop.
    private static func applyInsideSync<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let repetitions = 50
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let queue = runtime.makeSerialQueue(label: "apply-inside-sync")
                let counted = Atomic<Int>(0)
                let crew = Crew(size: runtime.workers)
                crew.start(on: runtime) { _ in
                    for _ in 0..<repetitions {
                        queue.sync {
                            runtime.apply(iterations: 16, stride: .fixed(1)) { _ in counted.add(1, ordering: .relaxed) }
                        }
                    }
                }
                crew.waitUntilFinished()
                let expected = runtime.workers * repetitions * 16
                try require(
                    counted.load(ordering: .relaxed) == expected,
                    "round \(round): \(counted.load(ordering: .relaxed)) of \(expected) iterations ran")
            }
        }
    }

    /// The pieces of one apply, on the caller and on every worker, sync onto one queue.
    private static func syncInsideApply<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let queue = runtime.makeSerialQueue(label: "sync-inside-apply")
                let tally = Unsynchronized(0)
                for _ in 0..<20 {
                    runtime.apply(iterations: 64, stride: .fixed(1)) { _ in queue.sync { tally.value += 1 } }
                }
                let total = queue.sync { tally.value }
                try require(total == 20 * 64, "round \(round): \(total) of \(20 * 64) syncs ran")
            }
        }
    }

    /// Every worker syncs onto one queue and, holding it, waits for a group member it queued:
    /// the other workers wait in `sync`, so the member needs a thread the pool does not have.
    private static func groupWaitInsideSync<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let repetitions = 50
        try withRuntime(type) { runtime in
            for round in 1...Conformance.blockingRounds {
                let queue = runtime.makeSerialQueue(label: "group-wait-inside-sync")
                let members = Atomic<Int>(0)
                let crew = Crew(size: runtime.workers)
                crew.start(on: runtime) { _ in
                    for _ in 0..<repetitions {
                        queue.sync {
                            let group = runtime.makeGroup()
                            runtime.async(group: group) { members.add(1, ordering: .relaxed) }
                            group.wait()
                        }
                    }
                }
                crew.waitUntilFinished()
                let expected = runtime.workers * repetitions
                try require(
                    members.load(ordering: .relaxed) == expected,
                    "round \(round): \(members.load(ordering: .relaxed)) of \(expected) members ran")
            }
        }
    }
}

/// A fixed number of blocks started together, each numbered, with test-owned semaphores (not
/// the runtime's, so the backend under test is not asked to help with them) saying when all have
/// started and when all have finished.
private final class Crew: Sendable {
    let size: Int
    private let started = MutexSemaphore(value: 0)
    private let finished = MutexSemaphore(value: 0)

    init(size: Int) { self.size = size }

    /// Each block on the runtime's pool.
    func start<R: ConcurrencyRuntime>(on runtime: R, _ body: @escaping @Sendable (Int) -> Void) {
        for member in 0..<size {
            runtime.async { [self] in run(member, body) }
        }
    }

    /// Block `i` on `queues[i]`.
    func start<Queue: SerialQueue>(onQueues queues: [Queue], _ body: @escaping @Sendable (Int) -> Void) {
        precondition(queues.count == size)
        for (member, queue) in queues.enumerated() {
            queue.async { [self] in run(member, body) }
        }
    }

    private func run(_ member: Int, _ body: (Int) -> Void) {
        started.signal()
        body(member)
        finished.signal()
    }

    func waitUntilStarted() {
        for _ in 0..<size { started.wait() }
        for _ in 0..<size { started.signal() }  // leave the count for a later waitUntilStarted
    }

    func waitUntilFinished() {
        for _ in 0..<size { finished.wait() }
    }
}

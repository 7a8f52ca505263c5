import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// How much of each kind one round submits. Drawn afresh for every round from the soak's seeded
/// generator, so rounds differ (an empty kind included) and a failing seed can be replayed.
struct SoakRoundSizes: Sendable {
    var asyncBlocks: Int
    var groupBlocks: Int
    var enterLeavePairs: Int
    var serialQueues: Int
    var blocksPerQueue: Int
    var lockBlocks: Int
    var applyIterations: Int
    /// Nested syncs per outer queue (`nestedSyncQueues` of them); 0 where the backend declares
    /// blocking inside work unsupported.
    var nestedSyncsPerQueue: Int
    /// Iterations of the apply called while every worker is busy (0: that part is skipped).
    var busyPoolApplyIterations: Int

    /// A member of a group submits one more member for every `nestingEvery` members.
    static let nestingEvery = 4
    /// A serial queue's submissions are interrupted by a `sync` every this many blocks.
    static let syncEvery = 16
    /// Outer queues whose blocks nest syncs at once: at least every worker of a machine this size.
    static let nestedSyncQueues = 4
    /// The largest round: what the ledger is sized for.
    static let largest = SoakRoundSizes(
        asyncBlocks: 512, groupBlocks: 512, enterLeavePairs: 128, serialQueues: 8,
        blocksPerQueue: 128, lockBlocks: 128, applyIterations: 4096,
        nestedSyncsPerQueue: 128, busyPoolApplyIterations: 256)

    /// - Parameters:
    ///   - blockingInsideWork: false where the backend declares
    ///     `RuntimeBehaviour.blockingWaitInsideWork` unsupported: no nested syncs then.
    ///   - busyPoolApply: false for no apply with every worker busy: where the backend declares
    ///     `RuntimeBehaviour.freeWorkerRunsAnyBlock` unsupported (the busy blocks, submitted while
    ///     the round's other blocks submit theirs, may be dealt two to one worker and none to
    ///     another), or where the soak does not own the pool (`SoakSettings.busyPoolApply`).
    static func random(
        using generator: inout SeededGenerator, blockingInsideWork: Bool = true, busyPoolApply: Bool = true
    ) -> SoakRoundSizes {
        let most = largest
        let nested = Int.random(in: 0...most.nestedSyncsPerQueue, using: &generator)
        return SoakRoundSizes(
            asyncBlocks: Int.random(in: 0...most.asyncBlocks, using: &generator),
            groupBlocks: Int.random(in: 0...most.groupBlocks, using: &generator),
            enterLeavePairs: Int.random(in: 0...most.enterLeavePairs, using: &generator),
            serialQueues: Int.random(in: 1...most.serialQueues, using: &generator),
            blocksPerQueue: Int.random(in: 0...most.blocksPerQueue, using: &generator),
            lockBlocks: Int.random(in: 0...most.lockBlocks, using: &generator),
            applyIterations: Int.random(in: 0...most.applyIterations, using: &generator),
            nestedSyncsPerQueue: blockingInsideWork ? nested : 0,
            // Drawn either way, as `nested` is, so a seed gives every backend the same sequence.
            busyPoolApplyIterations: Int.random(in: 0...most.busyPoolApplyIterations, using: &generator)
                * (busyPoolApply ? 1 : 0))
    }

    var nestedGroupBlocks: Int { (groupBlocks + Self.nestingEvery - 1) / Self.nestingEvery }

    var nestedSyncs: Int { Self.nestedSyncQueues * nestedSyncsPerQueue }

    /// Ledger ids the round uses: one per block, nested member, notify, apply index and nested sync.
    var tasks: Int {
        asyncBlocks + groupBlocks + nestedGroupBlocks + enterLeavePairs + 1 + serialQueues * blocksPerQueue
            + lockBlocks + applyIterations + nestedSyncs + busyPoolApplyIterations
    }
}

/// What went wrong in a soak, and in which round.
public struct SoakFailure: Error, Sendable, CustomStringConvertible {
    public let round: Int
    public let message: String
    public var description: String { "round \(round): \(message)" }
}

/// A value touched only by blocks of one serial queue (and its `sync` callers), with no lock of
/// its own: the queue's ordering is what makes it safe, and ThreadSanitizer checks that.
private final class QueueOwned: @unchecked Sendable {
    var blocksRun = 0
}

/// A value touched only while a semaphore used as a lock is held.
private final class LockOwned: @unchecked Sendable {
    var count = 0
}

/// Problems noticed inside blocks (a serial queue out of order), kept for the round's verdict.
private final class BlockProblems: Sendable {
    private let first = Mutex<String?>(nil)
    private let count = Atomic<Int>(0)

    func note(_ message: @autoclosure () -> String) {
        if count.wrappingAdd(1, ordering: .relaxed).oldValue == 0 {
            let text = message()
            first.withLock { $0 = text }
        }
    }

    var summary: String? {
        let total = count.load(ordering: .relaxed)
        guard total > 0 else { return nil }
        return first.withLock { $0 ?? "" } + (total > 1 ? " (and \(total - 1) more)" : "")
    }
}

/// One round of the soak's mix on runtime `R`, submitted from the soak thread:
/// - `async` blocks that each signal a semaphore, waited for one signal at a time;
/// - group members, every fourth adding a member to its own group, then `wait` on the group;
/// - `enter`/`leave` around plain blocks, then `notify` on a serial queue;
/// - serial queues whose blocks check they run in submission order, with `sync` calls among the
///   submissions that check they saw every block before them;
/// - blocks that take a semaphore used as a lock around a shared count;
/// - blocks on `nestedSyncQueues` queues at once, each nesting a `sync` onto a fourth queue inside
///   a `sync` onto a third, so every worker can be a `sync` caller at the same time;
/// - an `apply` loop, run while all of the above is in flight;
/// - then a second `apply`, called while every worker is busy with a block that waits until that
///   apply has returned: the caller must run it (those blocks give up after the timeout, so a
///   backend that fails this shows as a failed round, not a hung process).
/// Everything but the busy-pool apply is submitted before anything is waited for, so the kinds
/// run mixed. Every waits has
/// a timeout: a round that does not finish in time is a failure that says what was still missing,
/// not a hung process. Each round creates its own queues, semaphores and groups and drops them,
/// so a leak of any of them shows in the resident set.
struct SoakRound<R: ConcurrencyRuntime> {
    let runtime: R
    let ledger: SoakLedger
    let number: Int
    let sizes: SoakRoundSizes
    let timeout: Duration

    func run() throws(SoakFailure) -> SoakOperations {
        let ledger = self.ledger
        ledger.beginRound(tasks: sizes.tasks)
        var nextID = 0
        func ids(_ count: Int) -> Int {
            defer { nextID += count }
            return nextID
        }
        let problems = BlockProblems()
        var done = SoakOperations()

        // enter/leave around plain blocks, and the notify that waits for them.
        let enterLeave = runtime.makeGroup()
        let notifyQueue = runtime.makeSerialQueue(label: "soak.notify.\(number)")
        let notified = runtime.makeSemaphore(value: 0)
        let enterLeaveBase = ids(sizes.enterLeavePairs)
        for index in 0..<sizes.enterLeavePairs {
            enterLeave.enter()
            runtime.async {
                ledger.record(enterLeaveBase + index)
                enterLeave.leave()
            }
        }
        let notifyID = ids(1)
        enterLeave.notify(on: notifyQueue) {
            ledger.record(notifyID)
            notified.signal()
        }

        // async blocks, each signalling.
        let signals = runtime.makeSemaphore(value: 0)
        let asyncBase = ids(sizes.asyncBlocks)
        for index in 0..<sizes.asyncBlocks {
            runtime.async {
                ledger.record(asyncBase + index)
                signals.signal()
            }
        }

        // group members, some adding members to their own group.
        let group = runtime.makeGroup()
        let groupBase = ids(sizes.groupBlocks)
        let nestedBase = ids(sizes.nestedGroupBlocks)
        let runtime = self.runtime
        for index in 0..<sizes.groupBlocks {
            runtime.async(group: group) {
                ledger.record(groupBase + index)
                if index % SoakRoundSizes.nestingEvery == 0 {
                    runtime.async(group: group) { ledger.record(nestedBase + index / SoakRoundSizes.nestingEvery) }
                }
            }
        }

        // a semaphore as a lock. Safe even where blocking inside work is unsupported: a waiter
        // waits for a block that already holds the lock and is running, never for one still queued.
        let lock = runtime.makeSemaphore(value: 1)
        let locked = LockOwned()
        let lockGroup = runtime.makeGroup()
        let lockBase = ids(sizes.lockBlocks)
        for index in 0..<sizes.lockBlocks {
            runtime.async(group: lockGroup) {
                lock.wait()
                locked.count += 1
                lock.signal()
                ledger.record(lockBase + index)
            }
        }

        // serial queues, in order, with sync calls among the submissions.
        var queues: [(queue: R.Queue, owned: QueueOwned)] = []
        for queueIndex in 0..<sizes.serialQueues {
            let queue = runtime.makeSerialQueue(label: "soak.serial.\(number).\(queueIndex)")
            let owned = QueueOwned()
            queues.append((queue, owned))
            let base = ids(sizes.blocksPerQueue)
            for index in 0..<sizes.blocksPerQueue {
                queue.async {
                    if owned.blocksRun != index {
                        problems.note(
                            "serial queue \(queueIndex): block \(index) ran after \(owned.blocksRun) "
                                + "blocks, out of order")
                    }
                    owned.blocksRun = index + 1
                    ledger.record(base + index)
                }
                if (index + 1) % SoakRoundSizes.syncEvery == 0 {
                    let seen = queue.sync { owned.blocksRun }
                    done.syncCalls += 1
                    if seen != index + 1 {
                        problems.note(
                            "serial queue \(queueIndex): sync after \(index + 1) blocks saw \(seen) of them run")
                    }
                }
            }
        }

        // nested syncs from blocks on several queues at once.
        let third = runtime.makeSerialQueue(label: "soak.nested.third.\(number)")
        let fourth = runtime.makeSerialQueue(label: "soak.nested.fourth.\(number)")
        let nestedGroup = runtime.makeGroup()
        let nestedSyncBase = ids(sizes.nestedSyncs)
        let perQueue = sizes.nestedSyncsPerQueue
        for queueIndex in 0..<(perQueue > 0 ? SoakRoundSizes.nestedSyncQueues : 0) {
            let outer = runtime.makeSerialQueue(label: "soak.nested.outer.\(number).\(queueIndex)")
            nestedGroup.enter()
            outer.async {
                for index in 0..<perQueue {
                    third.sync { fourth.sync { ledger.record(nestedSyncBase + queueIndex * perQueue + index) } }
                }
                nestedGroup.leave()
            }
        }

        // apply, with everything above in flight.
        let applyBase = ids(sizes.applyIterations)
        runtime.apply(iterations: sizes.applyIterations, stride: .automatic) { ledger.record(applyBase + $0) }

        // apply with every worker busy until it returns.
        let busyApplyBase = ids(sizes.busyPoolApplyIterations)
        if sizes.busyPoolApplyIterations > 0 {
            let busy = BusyPool(runtime: runtime, timeout: timeout)
            runtime.apply(iterations: sizes.busyPoolApplyIterations, stride: .fixed(1)) {
                ledger.record(busyApplyBase + $0)
            }
            if let problem = busy.release() { problems.note(problem) }
        }
        precondition(nextID == sizes.tasks, "the round's ids and its size disagree")

        // Now wait for everything, each wait with the timeout.
        for received in 0..<sizes.asyncBlocks where signals.wait(timeout: timeout) == .timedOut {
            throw failure("only \(received) of \(sizes.asyncBlocks) async blocks signalled within \(timeout)")
        }
        if group.wait(timeout: timeout) == .timedOut {
            throw failure(
                "the group of \(sizes.groupBlocks) members (+\(sizes.nestedGroupBlocks) nested) "
                    + "was not empty after \(timeout)")
        }
        if lockGroup.wait(timeout: timeout) == .timedOut {
            throw failure(
                "the \(sizes.lockBlocks) blocks sharing a semaphore as a lock had not finished after \(timeout)")
        }
        if nestedGroup.wait(timeout: timeout) == .timedOut {
            throw failure(
                "the \(sizes.nestedSyncs) nested syncs from \(SoakRoundSizes.nestedSyncQueues) queues had not "
                    + "finished after \(timeout)")
        }
        if notified.wait(timeout: timeout) == .timedOut {
            throw failure(
                "notify did not run within \(timeout) of its group's \(sizes.enterLeavePairs) enter/leave pairs")
        }
        for (queueIndex, entry) in queues.enumerated() {
            let seen = entry.queue.sync { entry.owned.blocksRun }
            done.syncCalls += 1
            if seen != sizes.blocksPerQueue {
                problems.note(
                    "serial queue \(queueIndex): the final sync saw \(seen) of \(sizes.blocksPerQueue) blocks run")
            }
        }
        // Every block has been waited for; the lock's count is read after its group emptied.
        if locked.count != sizes.lockBlocks {
            problems.note(
                "the semaphore-guarded count reads \(locked.count) after \(sizes.lockBlocks) "
                    + "increments: the lock let two in")
        }
        if let problem = problems.summary { throw failure(problem) }
        if let mistakes = ledger.mistakes() { throw failure(mistakes) }

        done.asyncBlocks = sizes.asyncBlocks
        done.groupBlocks = sizes.groupBlocks + sizes.nestedGroupBlocks
        done.enterLeavePairs = sizes.enterLeavePairs
        done.notifications = 1
        done.serialBlocks = sizes.serialQueues * sizes.blocksPerQueue
        done.semaphoreLockPairs = sizes.lockBlocks
        done.applyIterations = sizes.applyIterations
        done.nestedSyncs = sizes.nestedSyncs
        done.busyPoolApplyIterations = sizes.busyPoolApplyIterations
        // 4 groups, 3 semaphores, the notify queue, the serial queues, the nested syncs' queues
        done.objectsCreated = 8 + sizes.serialQueues + 2 + (perQueue > 0 ? SoakRoundSizes.nestedSyncQueues : 0)
        return done

        func failure(_ message: String) -> SoakFailure {
            SoakFailure(round: number, message: message + " (ledger: \(ledger.ran()) of \(sizes.tasks) tasks had run)")
        }
    }
}

/// Every worker of the runtime busy with a block that waits until `release()`, or gives up after
/// the timeout (and `release()` then says so): a caller that needs a free worker finds none.
///
/// The blocks wait on the runtime's own semaphore, so a backend that adds a thread when its
/// workers block (fifo-dispatch, libdispatch) does so at once; a wait it cannot see would leave
/// the rest of the round to the stall monitors, 100 ms late.
private final class BusyPool<R: ConcurrencyRuntime>: Sendable {
    private let gate: R.Semaphore
    private let started = MutexSemaphore(value: 0)
    private let finished = MutexSemaphore(value: 0)
    private let gaveUp = Atomic<Int>(0)
    private let blocks: Int
    private let timeout: Duration

    init(runtime: R, timeout: Duration) {
        blocks = runtime.workers
        gate = runtime.makeSemaphore(value: 0)
        self.timeout = timeout
        for _ in 0..<blocks {
            runtime.async { [self] in
                started.signal()
                if gate.wait(timeout: timeout) == .timedOut { gaveUp.add(1, ordering: .relaxed) }
                finished.signal()
            }
        }
        for _ in 0..<blocks { _ = started.wait(timeout: timeout) }
    }

    /// Lets the blocks go and waits for them; a message when any had given up waiting.
    func release() -> String? {
        for _ in 0..<blocks { gate.signal() }
        for _ in 0..<blocks { _ = finished.wait(timeout: timeout) }
        let count = gaveUp.load(ordering: .relaxed)
        return count == 0
            ? nil
            : "apply did not return within \(timeout) while every worker was busy: "
                + "\(count) busy blocks gave up waiting for it"
    }
}

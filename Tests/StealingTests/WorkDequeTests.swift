import PThreadPrimitives
@testable import StealingRuntime
import Synchronization
import Testing

/// A bare token for the deque: the "address" encodes an index and is never run or dereferenced,
/// which is all the deque itself ever does with a job.
extension JobRef {
    static func token(_ index: Int) -> JobRef { JobRef(UnsafeMutableRawPointer(bitPattern: index + 1)!) }
    var index: Int { Int(bitPattern: address) - 1 }
}

@Suite("WorkDeque: Chase–Lev with one owner and several thieves")
struct WorkDequeTests {
    @Test("owner alone: LIFO at the bottom, FIFO for a thief, full ring refuses")
    func sequential() {
        let deque = WorkDeque(capacity: 4)
        #expect(deque.pop() == nil && deque.steal() == nil)
        for index in 0..<4 { #expect(deque.push(JobRef.token(index))) }
        #expect(!deque.push(JobRef.token(99)), "a full ring must refuse")
        #expect(deque.steal()?.index == 0)  // oldest
        #expect(deque.pop()?.index == 3)  // newest
        #expect(deque.push(JobRef.token(4)))  // room again, wrapping around the ring
        #expect([deque.pop()?.index, deque.pop()?.index, deque.pop()?.index] == [4, 2, 1])
        #expect(deque.pop() == nil && deque.count == 0)
    }

    /// The owner pushes and pops 2,000,000 jobs in bursts while 3 thieves steal; every job must be
    /// taken exactly once. Small capacity keeps the ring wrapping (slot reuse races).
    @Test("2,000,000 jobs, one owner, three thieves: nothing lost, nothing taken twice")
    func stress() async throws {
        let race = try await raceOwnerAgainstThieves(total: 2_000_000, capacity: 64, thief: singleSteals) {
            deque, record in
            var next = 0
            while next < 2_000_000 {
                // A burst of pushes (up to the ring's capacity), then pop about half back.
                let burst = min(48, 2_000_000 - next)
                for _ in 0..<burst where deque.push(.token(next)) { next += 1 }
                for _ in 0..<(burst / 2) { if let job = deque.popForTesting() { record(job) } }
            }
        }
        #expect(race.missing == 0 && race.duplicated == 0, "\(race.missing) jobs lost, \(race.duplicated) taken twice")
        #expect(race.stolen > 0, "the thieves never stole: the test exercised nothing")
    }
}

extension WorkDequeTests {
    /// The race the fence in pop exists for: one job left, the owner popping it while thieves
    /// steal it. The owner pushes one job and pops it straight back, 1,000,000 times, with three
    /// thieves trying to steal that same single job; each must go to exactly one of them.
    @Test("the last jobs: owner pops against three thieves, 1,000,000 jobs in ones and twos")
    func lastJobRace() async throws {
        let race = try await raceOwnerAgainstThieves(total: 1_000_000, capacity: 4, thief: singleSteals) {
            deque, record in
            // Alternate one and two jobs left: with one, owner and thief meet at the
            // compare-exchange; with two, the owner takes without one, which is where the fence in
            // pop matters.
            var index = 0
            while index < 1_000_000 {
                let depth = min(1 + index % 2, 1_000_000 - index)
                for offset in 0..<depth { _ = deque.push(.token(index + offset)) }
                for _ in 0..<depth { if let job = deque.popForTesting() { record(job) } }
                index += depth
            }
        }
        #expect(race.missing + race.duplicated == 0, "\(race.missing + race.duplicated) jobs were lost or taken twice")
        #expect(race.stolen > 0, "no steal ever won: the race was not exercised")
    }
}

extension WorkDequeTests {
    @Test("a batch steal takes half, rounded up, at most maximumBatch, oldest first, into the thief's deque")
    func batchShape() {
        let victim = WorkDeque(capacity: 128), thief = WorkDeque(capacity: 128)
        for index in 0..<5 { #expect(victim.push(.token(index))) }
        #expect(victim.stealBatch(into: thief)?.index == 0)  // 3 of 5: one to run, two moved
        #expect(thief.count == 2 && victim.count == 2)
        #expect(thief.steal()?.index == 1, "moved jobs keep their order")
        #expect(thief.popForTesting()?.index == 2)
        for index in 5..<105 { #expect(victim.push(.token(index))) }
        _ = victim.stealBatch(into: thief)
        #expect(thief.count == WorkDeque.maximumBatch - 1, "at most maximumBatch jobs per batch")
        let single = WorkDeque(capacity: 4)
        #expect(single.push(.token(7)))
        #expect(single.stealBatch(into: WorkDeque(capacity: 4))?.index == 7, "a single job can be stolen")
    }

    /// Batch steals against an owner that pops: the race that makes one compare-exchange per
    /// batch wrong (the owner takes jobs below the last without one). Each thief moves batches into
    /// its own deque and drains it as that deque's owner; every job must be taken exactly once.
    @Test("1,000,000 jobs, one owner, three batch thieves: nothing lost, nothing taken twice")
    func batchStress() async throws {
        let race = try await raceOwnerAgainstThieves(total: 1_000_000, capacity: 64, thief: batchSteals) {
            deque, record in
            var next = 0
            while next < 1_000_000 {
                let burst = min(1 + next % 40, 1_000_000 - next)
                for _ in 0..<burst where deque.push(.token(next)) { next += 1 }
                for _ in 0..<(burst / 2 + 1) { if let job = deque.popForTesting() { record(job) } }
            }
        }
        #expect(race.missing + race.duplicated == 0, "\(race.missing) jobs lost, \(race.duplicated) taken twice")
        #expect(race.stolen > 0, "no batch steal ever won: the race was not exercised")
    }

    @Test("every job type starts with its header, where a thief reads it; a heap job stays at 56 bytes")
    func headerFirst() {
        #expect(MemoryLayout<HeapJob>.offset(of: \.header) == 0)
        // malloc rounds 56 bytes and its header to a 64-byte chunk; 64 bytes would take 80.
        #expect(MemoryLayout<HeapJob>.size <= 56)
    }
}

/// A thief's one attempt: it takes what it can from `deque`, records each job, returns how many.
typealias Thief = @Sendable (_ deque: WorkDeque, _ record: (JobRef) -> Void) -> Int

/// One job per attempt.
let singleSteals: @Sendable () -> Thief = {
    { deque, record in
        guard let job = deque.steal() else { return 0 }
        record(job)
        return 1
    }
}

/// A batch per attempt, into the thief's own deque, which it then drains as that deque's owner.
let batchSteals: @Sendable () -> Thief = {
    let own = WorkDeque(capacity: 64)
    return { deque, record in
        guard let first = deque.stealBatch(into: own) else { return 0 }
        record(first)
        var taken = 1
        while let job = own.popForTesting() { record(job); taken += 1 }
        return taken
    }
}

/// One owner against three thieves on one deque. `owner` pushes and pops the jobs 0..<total
/// (recording what it pops) on the calling thread; each thief (made by `thief`, one per thread)
/// attempts until the owner is done and the deque is empty. Then every job left is popped and
/// each index's count is checked: every job must be taken exactly once, whoever took it.
func raceOwnerAgainstThieves(
    total: Int, thieves: Int = 3, capacity: Int,
    thief makeThief: @escaping @Sendable () -> Thief,
    owner: @escaping @Sendable (_ deque: WorkDeque, _ record: (JobRef) -> Void) -> Void
) async throws -> (missing: Int, duplicated: Int, stolen: Int) {
    try await onDedicatedThread {
        let deque = WorkDeque(capacity: capacity)
        let taken = TakenLedger(count: total)
        let ownerDone = Atomic<Bool>(false)
        let stolen = Atomic<Int>(0)
        let thiefThreads = (0..<thieves).map { _ in
            PThread.spawn {
                let attempt = makeThief()
                while !ownerDone.load(ordering: .acquiring) || deque.count > 0 {
                    stolen.add(attempt(deque) { taken.record($0.index) }, ordering: .relaxed)
                }
            }
        }
        owner(deque) { taken.record($0.index) }
        while let job = deque.popForTesting() { taken.record(job.index) }
        ownerDone.store(true, ordering: .releasing)
        thiefThreads.forEach { $0.join() }
        var missing = 0, duplicated = 0
        for index in 0..<total {
            switch taken.times(index) {
            case 0: missing += 1
            case 1: break
            default: duplicated += 1
            }
        }
        return (missing, duplicated, stolen.load(ordering: .relaxed))
    }
}

/// How many times each index was taken, counted atomically (two thieves taking one job would
/// both count).
final class TakenLedger: @unchecked Sendable {
    private let counts: UnsafeMutablePointer<Atomic<UInt8>>
    private let count: Int

    init(count: Int) {
        self.count = count
        counts = .allocate(capacity: count)
        for index in 0..<count { (counts + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counts.deinitialize(count: count)
        counts.deallocate()
    }

    func record(_ index: Int) { counts[index].add(1, ordering: .relaxed) }
    func times(_ index: Int) -> UInt8 { counts[index].load(ordering: .relaxed) }
}

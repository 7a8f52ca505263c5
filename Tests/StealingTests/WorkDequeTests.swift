import PThreadPrimitives
import StealingRuntime
import Synchronization
import Testing

/// A job that records which index it was; a class, as the deque requires.
final class Token: Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
}

@Suite("WorkDeque: Chase–Lev with one owner and several thieves")
struct WorkDequeTests {
    @Test("owner alone: LIFO at the bottom, FIFO for a thief, full ring refuses")
    func sequential() {
        let deque = WorkDeque<Token>(capacity: 4)
        #expect(deque.pop() == nil && deque.steal() == nil)
        for index in 0..<4 { #expect(deque.push(Token(index))) }
        #expect(!deque.push(Token(99)), "a full ring must refuse")
        #expect(deque.steal()?.index == 0)  // oldest
        #expect(deque.pop()?.index == 3)    // newest
        #expect(deque.push(Token(4)))       // room again, wrapping around the ring
        #expect([deque.pop()?.index, deque.pop()?.index, deque.pop()?.index] == [4, 2, 1])
        #expect(deque.pop() == nil && deque.count == 0)
    }

    /// The owner pushes and pops 2,000,000 jobs in bursts while 3 thieves steal; every job must be
    /// taken exactly once. Small capacity keeps the ring wrapping (slot reuse races).
    @Test("2,000,000 jobs, one owner, three thieves: nothing lost, nothing taken twice")
    func stress() async throws {
        let total = 2_000_000, thieves = 3
        let (missing, duplicated, popped, stolenCount) = try await onDedicatedThread { () -> (Int, Int, Int, Int) in
        let deque = WorkDeque<Token>(capacity: 64)
        let taken = TakenLedger(count: total)
        let ownerDone = Atomic<Bool>(false)
        let stolen = Atomic<Int>(0)
        @Sendable func record(_ token: Token) { taken.record(token.index) }

        let thiefThreads = (0..<thieves).map { _ in
            PThread.spawn {
                while true {
                    if let token = deque.steal() {
                        record(token)
                        stolen.add(1, ordering: .relaxed)
                    } else if ownerDone.load(ordering: .acquiring) && deque.count == 0 {
                        return
                    }
                }
            }
        }
        var next = 0, popped = 0
        while next < total {
            // A burst of pushes (up to the ring's capacity), then pop about half back.
            let burst = min(48, total - next)
            for _ in 0..<burst {
                let token = Token(next)
                if deque.push(token) { next += 1 } else { break }
            }
            for _ in 0..<(burst / 2) {
                if let token = deque.pop() { record(token); popped += 1 }
            }
        }
        while let token = deque.pop() { record(token); popped += 1 }
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
        return (missing, duplicated, popped, stolen.load(ordering: .relaxed))
        }
        #expect(missing == 0 && duplicated == 0, "\(missing) jobs lost, \(duplicated) taken twice")
        #expect(popped + stolenCount == total)
        #expect(stolenCount > 0, "the thieves never stole: the test exercised nothing")
    }
}

extension WorkDequeTests {
    /// The race the fence in pop exists for: one job left, the owner popping it while thieves
    /// steal it. The owner pushes one job and pops it straight back, 1,000,000 times, with three
    /// thieves trying to steal that same single job; each must go to exactly one of them.
    @Test("the last jobs: owner pops against three thieves, 1,000,000 jobs in ones and twos")
    func lastJobRace() async throws {
        let total = 1_000_000, thieves = 3
        let (wrong, stolenCount) = try await onDedicatedThread { () -> (Int, Int) in
        let deque = WorkDeque<Token>(capacity: 4)
        let taken = TakenLedger(count: total)
        let ownerDone = Atomic<Bool>(false)
        let stolen = Atomic<Int>(0)
        let thiefThreads = (0..<thieves).map { _ in
            PThread.spawn {
                while !ownerDone.load(ordering: .acquiring) || deque.count > 0 {
                    if let token = deque.steal() {
                        taken.record(token.index)
                        stolen.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        // Alternate one and two jobs left: with one, owner and thief meet at the compare-exchange;
        // with two, the owner takes without one, which is where the fence in pop matters.
        var index = 0
        while index < total {
            let depth = min(1 + index % 2, total - index)
            for offset in 0..<depth { _ = deque.push(Token(index + offset)) }
            for _ in 0..<depth { if let token = deque.pop() { taken.record(token.index) } }
            index += depth
        }
        ownerDone.store(true, ordering: .releasing)
        thiefThreads.forEach { $0.join() }
        var wrong = 0
        for index in 0..<total where taken.times(index) != 1 { wrong += 1 }
        return (wrong, stolen.load(ordering: .relaxed))
        }
        #expect(wrong == 0, "\(wrong) of \(total) jobs were lost or taken twice")
        #expect(stolenCount > 0, "no steal ever won: the race was not exercised")
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

import ConditionPool
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing

/// The outside runtime's own checks: what any runtime must do with its pool.
@Suite("ConditionPool: every block runs exactly once")
struct ConditionPoolTests {
    final class Ledger: Sendable {
        let runs: Mutex<[Int]>
        init(_ count: Int) { runs = Mutex(Array(repeating: 0, count: count)) }
        func ran(_ index: Int) { runs.withLock { $0[index] += 1 } }
        var everyOnce: Bool { runs.withLock { $0.allSatisfy { $0 == 1 } } }
    }

    @Test("200,000 blocks, half submitted by blocks, each runs once; shutdown waits for all", arguments: [1, 2, 4])
    func everyBlockOnce(workers: Int) {
        let pool = ConditionPool(workers: workers)
        let ledger = Ledger(200_000)
        for index in stride(from: 0, to: 200_000, by: 2) {
            pool.async {
                ledger.ran(index)
                pool.async { ledger.ran(index + 1) }
            }
        }
        pool.shutdown()
        #expect(ledger.everyOnce)
    }

    @Test("a serial queue on the pool runs its blocks in order, one at a time")
    func serialQueue() {
        let pool = ConditionPool(workers: 2)
        let queue = pool.makeSerialQueue(label: "order")
        let seen = Mutex<[Int]>([])
        for index in 0..<10_000 { queue.async { seen.withLock { $0.append(index) } } }
        queue.sync {}
        pool.shutdown()
        #expect(seen.withLock { $0 } == Array(0..<10_000))
    }

    @Test("it declares what a fixed pool cannot do, with the reason")
    func declaresItsLimits() {
        #expect(ConditionPool.unsupported[.waitWithEveryWorkerWaiting]?.isEmpty == false)
        #expect(ConditionPool.unsupported[.waitUnseenByRuntime]?.isEmpty == false)
    }
}

@testable import FIFODispatch
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing
import TestSupport

/// Blocks given as a C function and its context (`dispatch_async_f`), which a node carries with
/// nothing retained, next to closures.
@Suite("FIFODispatch function blocks")
struct FunctionBlockTests {
    /// What each submission of the test's function block does: count one run.
    final class Runs: @unchecked Sendable {
        let count = Atomic<Int>(0)
        /// Serial-queue order test only: touched by one block at a time, a plain var, so a missing
        /// happens-before edge is a race ThreadSanitizer reports.
        var order: [Int] = []
        var nextFunctionIndex = 0

        static let function: WorkFunction = { context in
            let runs = Unmanaged<Runs>.fromOpaque(context!).takeUnretainedValue()
            runs.count.add(1, ordering: .relaxed)
        }

        static let recordFunction: WorkFunction = { context in
            let runs = Unmanaged<Runs>.fromOpaque(context!).takeUnretainedValue()
            runs.order.append(2 * runs.nextFunctionIndex + 1)
            runs.nextFunctionIndex += 1
        }
    }

    @Test("200,000 function blocks from outside and 200,000 from inside the pool: each runs exactly once")
    func functionBlocksRunOnce() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let runs = Runs()
        let block = FunctionBlock(context: Unmanaged.passUnretained(runs).toOpaque(), Runs.function)
        let total = 200_000
        for _ in 0..<total { runtime.async(block) }
        // From inside: one block submits the second half, so those pushes come from a worker.
        runtime.async { for _ in 0..<total { runtime.async(block) } }
        let done = eventually(timeout: .seconds(60)) { runs.count.load(ordering: .relaxed) >= 2 * total }
        #expect(
            done,
            "only \(runs.count.load(ordering: .relaxed)) of \(2 * total) function blocks ran: \(runtime.debugState)")
        // Nothing may run twice: shutdown runs whatever is still queued, so the count is final.
        runtime.shutdown()
        #expect(runs.count.load(ordering: .relaxed) == 2 * total)
    }

    @Test("function blocks and closures on one serial queue run one at a time, in submission order")
    func serialOrderAcrossForms() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let queue = runtime.makeSerialQueue(label: "function-blocks")
        let runs = Runs()
        let block = FunctionBlock(context: Unmanaged.passUnretained(runs).toOpaque(), Runs.recordFunction)
        let pairs = 10_000
        for index in 0..<pairs {
            queue.async { runs.order.append(2 * index) }
            queue.async(block)
        }
        let finished = Atomic<Bool>(false)
        queue.async { finished.store(true, ordering: .releasing) }
        let done = eventually(timeout: .seconds(60)) { finished.load(ordering: .acquiring) }
        #expect(done, "the queue did not drain: \(queue.debugState)")
        let order = queue.sync { runs.order }
        let firstWrong = zip(order, 0...).first { $0.0 != $0.1 }
        #expect(order.count == 2 * pairs, "\(order.count) runs for \(2 * pairs) submissions")
        #expect(firstWrong == nil, "run \(firstWrong?.1 ?? 0) was submission \(firstWrong?.0 ?? 0): out of order")
    }
}

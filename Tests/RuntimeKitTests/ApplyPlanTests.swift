import RuntimeKit
import Testing

@Suite("ApplyPlan and StridePolicy: how a loop is cut")
struct ApplyPlanTests {
    @Test(
        "pieces cover 0..<iterations exactly once, in order", arguments: [0, 1, 2, 7, 64, 1_000_003],
        [StridePolicy.fixed(1), .fixed(3), .fixed(7), .fixed(1_000_000_000), .automatic])
    func piecesCoverTheLoop(iterations: Int, policy: StridePolicy) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: 2)
        var next = 0
        for piece in 0..<plan.pieces {
            let range = plan.indices(ofPiece: piece)
            #expect(range.lowerBound == next && !range.isEmpty)
            #expect(range.count <= plan.stride)
            next = range.upperBound
        }
        #expect(next == iterations)
    }

    @Test("a fixed stride is used as given; the last piece takes the remainder")
    func fixedStride() {
        let plan = ApplyPlan(iterations: 100, stride: .fixed(30), workers: 4)
        #expect(plan.stride == 30)
        #expect(plan.pieces == 4)
        #expect(plan.indices(ofPiece: 3) == 90..<100)
    }

    @Test("automatic cuts a large loop into a fixed number of pieces per worker")
    func automaticStride() {
        let workers = 2
        let plan = ApplyPlan(iterations: 1_600_000, stride: .automatic, workers: workers)
        #expect(plan.pieces == workers * StridePolicy.automaticPiecesPerWorker)
        // A loop shorter than that gets one iteration per piece, never zero.
        #expect(ApplyPlan(iterations: 5, stride: .automatic, workers: workers).stride == 1)
    }
}

@Suite("Duration.nanosecondsSaturating: timeouts never trap")
struct TimeoutTests {
    @Test("ordinary, negative and enormous durations")
    func clamping() {
        #expect(Duration.milliseconds(20).nanosecondsSaturating == 20_000_000)
        #expect(Duration.seconds(-5).nanosecondsSaturating == 0)
        #expect(Duration.zero.nanosecondsSaturating == 0)
        #expect(Duration.seconds(Int64.max).nanosecondsSaturating == Int64.max)
    }

    @Test("worker counts: 0 means one per CPU")
    func workerCounts() {
        #expect(resolvedWorkerCount(0) == activeProcessorCount)
        #expect(resolvedWorkerCount(3) == 3)
        #expect(activeProcessorCount >= 1)
    }
}

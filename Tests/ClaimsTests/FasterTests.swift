@testable import Claims
import Results
import Testing

/// `Faster` decides by the rank test, by intervals where neither case has modes, and mode by
/// mode where one has.
@Suite("Faster: ranks, intervals, and modes compared like with like")
struct FasterTests {
    static func estimate(_ values: [Double]) throws -> CaseEstimate {
        try #require(CaseEstimate(values: values, prior: nil, sittingSpread: 0))
    }

    @Test("narrow intervals apart decide; overlapping ones with interleaved processes do not")
    func intervals() throws {
        let fast = try Self.estimate([10, 10.1, 9.9, 10.05]), slow = try Self.estimate([20, 20.2, 19.8, 20.1])
        #expect(Faster(fast, slow) == .first && Faster(slow, fast) == .second)
        let interleaved = try Self.estimate([9.95, 30, 5, 12])
        #expect(Faster(fast, interleaved) == .neither)
    }

    @Test("a case nine times slower in every one of 4 processes, whose processes fall into two modes, is slower")
    func separatedModes() throws {
        let best = try Self.estimate([48, 49, 48.5, 50])
        // A fast and a slow mode: the interval over logarithms is wide enough to reach 48 ns.
        let bimodal = try Self.estimate([108, 160, 1_200, 1_717])
        #expect(bimodal.comparisonInterval.lower < 50, "the premise: the intervals overlap: \(bimodal)")
        #expect(bimodal.modes.count == 2, "the premise: two modes")
        #expect(Faster(best, bimodal) == .first && Faster(bimodal, best) == .second)
    }

    @Test("separated processes decide only with processes enough: 3 against 3 is 1 chance in 10, not enough")
    func tooFewToTell() throws {
        let best = try Self.estimate([48, 49, 50])
        let bimodal = try Self.estimate([108, 900, 1_717])
        #expect(bimodal.comparisonInterval.lower < 50, "the premise: the intervals overlap: \(bimodal)")
        #expect(Faster(best, bimodal) == .neither)
    }

    @Test("with 5 processes against 5, one process out of place still decides; with 4 against 4 it does not")
    func oneOutOfPlace() throws {
        // Wide enough apart in spread that the intervals overlap: the rank test alone decides.
        let fast = try Self.estimate([100, 101, 102, 103, 112.5]), slow = try Self.estimate([104, 110, 113, 114, 115])
        #expect(fast.comparisonInterval.upper > slow.comparisonInterval.lower, "the premise: the intervals overlap")
        #expect(Faster(fast, slow) == .first && Faster(slow, fast) == .second)
        let fewer = try Self.estimate([100, 101, 102, 112.5]), fewerSlow = try Self.estimate([104, 110, 113, 114])
        #expect(fewer.comparisonInterval.upper > fewerSlow.comparisonInterval.lower)
        #expect(Faster(fewer, fewerSlow) == .neither)
    }

    @Test("a case with a mode faster and a mode slower than another depends on the mode")
    func dependsOnMode() throws {
        let split = try Self.estimate([10, 10.1, 10.2, 1_000, 1_010, 990])
        let steady = try Self.estimate([100, 101, 99, 100.5, 100.2, 99.8])
        #expect(split.modes.map(\.processes) == [3, 3])
        #expect(Faster(split, steady) == .dependsOnMode && Faster(steady, split) == .dependsOnMode)
        #expect(!Faster(split, steady).isClear)
    }

    @Test("two cases with two modes each compare fast mode with fast mode and slow with slow")
    func likeWithLike() throws {
        let a = try Self.estimate([10, 10.05, 1_000, 1_005]), b = try Self.estimate([20, 20.1, 2_000, 2_010])
        #expect(a.modes.count == 2 && b.modes.count == 2, "the premise: two modes each")
        #expect(Faster(a, b) == .first && Faster(b, a) == .second)
    }

    @Test("modes whose shares differ are not paired by rank: a 3-in-19 fast mode against a 16-in-17 main one")
    func unlikeShares() throws {
        // As a quick run read a task from outside on fifo-dispatch and work-stealing: the first is
        // slower in its main mode (16 of 19 processes) and faster in its fast one (3 of 19); the
        // second has one stray slow process. Paired by rank (fast with fast, slow with slow), the
        // first's fast mode met the second's main one, and the stray process the first's main
        // mode: "the first is faster", although 16 of its 19 processes are slower.
        let prior = SpreadPrior(spread: 0.05, weight: 4)
        let first = try #require(
            CaseEstimate(
                values: [48, 49, 50] + [
                    125, 130, 138, 145, 150, 155, 158, 160, 161, 162, 163, 165, 168, 170, 175, 180,
                ],
                prior: prior, sittingSpread: 0.015))
        let second = try #require(
            CaseEstimate(
                values: [120, 125, 128, 130, 132, 134, 136, 137, 138, 139, 140, 142, 145, 150, 160, 190] + [8_340],
                prior: prior, sittingSpread: 0.015))
        #expect(first.modes.map(\.processes) == [3, 16] && second.modes.map(\.processes) == [16, 1], "the premise")
        #expect(
            RankTest.compare(first.values, second.values).pValue >= Faster.level, "the premise: ranks do not decide")
        #expect(
            first.modes[1].estimate.comparisonInterval.lower > second.modes[0].estimate.comparisonInterval.upper,
            "the premise: the main modes are told apart")
        #expect(Faster(first, second) == .dependsOnMode && Faster(second, first) == .dependsOnMode)
    }
}

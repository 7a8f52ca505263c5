import Claims
import Results
import Testing

/// `Faster` decides by intervals, or by every process of one case lying below every process of
/// the other when there are processes enough for that to be rare by chance.
@Suite("Faster: intervals, or processes wholly separated")
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
        #expect(Faster(best, bimodal) == .first && Faster(bimodal, best) == .second)
    }

    @Test("separated processes decide only with processes enough: 3 against 3 is 1 chance in 10, not enough")
    func tooFewToTell() throws {
        let best = try Self.estimate([48, 49, 50])
        let bimodal = try Self.estimate([108, 900, 1_717])
        #expect(bimodal.comparisonInterval.lower < 50, "the premise: the intervals overlap: \(bimodal)")
        #expect(Faster(best, bimodal) == .neither)
    }
}

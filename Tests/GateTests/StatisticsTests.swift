import Gate
import Results
import Testing

/// The gate's arithmetic against scipy 1.17: scipy.stats.t, ttest_ind(equal_var=False, trim=0.2)
/// (Yuen–Welch), ttest_rel, and the one-sample Yuen test written out from Wilcox's formulas (the
/// same as scipy's trimmed test, which has no one-sample form), on the same numbers.
@Suite struct StatisticsTests {
    @Test(arguments: [
        (0.0, 3.0, 1.0), (1.0, 1.0, 0.5), (2.0, 2.0, 0.18350341907227397), (2.776445105, 4.0, 0.05000000001011946),
        (3.5, 7.3, 0.009343138528485555), (10.0, 5.0, 0.00017094757574296363), (0.5, 30.0, 0.6207230048851272),
        (40.0, 2.0, 0.0006244146721847406), (0.001, 10.0, 0.999221783374741), (6.0, 1.5, 0.05020245677632479),
        (-2.0, 2.0, 0.18350341907227397),
    ])
    func tTailMatchesScipy(t: Double, degrees: Double, expected: Double) {
        let tail = StudentT.twoSidedTail(t, degreesOfFreedom: degrees)
        #expect(
            abs(tail - expected) <= 1e-10 * max(1, expected) + 1e-15,
            "t = \(t), ν = \(degrees): \(tail) vs scipy \(expected)")
    }

    @Test(arguments: [
        (0.05, 4.0, 2.7764451051977943), (0.01, 7.0, 3.4994832973504932), (0.05, 1.3, 7.500529325562036),
        (1e-4, 20.0, 4.837301152909665), (0.5, 3.0, 0.7648923284043444),
    ])
    func tCriticalMatchesScipy(tail: Double, degrees: Double, expected: Double) {
        let critical = StudentT.twoSidedCritical(tail: tail, degreesOfFreedom: degrees)
        #expect(
            abs(critical - expected) <= 1e-8 * expected,
            "tail \(tail), ν = \(degrees): \(critical) vs scipy \(expected)")
    }

    @Test func holmAdjustsInInputOrder() {
        // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → max(0.06, 0.04) = 0.06.
        let adjusted = HolmCorrection.adjust([0.01, 0.04, 0.03, 0.005])
        #expect(zip(adjusted, [0.03, 0.06, 0.06, 0.02]).allSatisfy { abs($0 - $1) < 1e-12 }, "\(adjusted)")
        #expect(HolmCorrection.adjust([0.5, 0.9]) == [1, 1])
        #expect(HolmCorrection.adjust([]) == [])
    }

    @Test func yuenWelchOnLogarithmsMatchesScipy() throws {
        // Five a side: one value trimmed from each end.
        let estimate = try #require(
            ChangeEstimate.unpaired(base: [100, 102, 99, 101, 100.5], new: [110, 111.5, 109, 112, 110.2]))
        #expect(estimate.scale == .ratio)
        #expect(abs(estimate.pValue - 0.0003435730816839495) < 1e-12)
        #expect(abs(estimate.degreesOfFreedom - 3.5755755729183285) < 1e-9)
        #expect(abs(estimate.relativeChange! - 0.10015506827469767) < 1e-12)
        #expect(abs(estimate.relativeInterval!.lower - 0.07766064223126765) < 1e-9)
        #expect(abs(estimate.relativeInterval!.upper - 0.12311902914495007) < 1e-9)
    }

    @Test func welchWhenTooFewToTrim() throws {
        // Three a side: nothing trimmed, Welch's test exactly (scipy: p 0.0014359, ν 3.7119).
        let estimate = try #require(ChangeEstimate.unpaired(base: [100, 102, 99], new: [110, 111.5, 109]))
        #expect(abs(estimate.pValue - 0.0014359065270979233) < 1e-12, "\(estimate.pValue)")
        #expect(abs(estimate.degreesOfFreedom - 3.711907145449294) < 1e-9, "\(estimate.degreesOfFreedom)")
    }

    @Test func pairedYuenIgnoresPairsWithAProcessInASlowPhase() throws {
        // Ten pairs, every one +10% but two: a B process in a slow phase (×1.5) and an A process
        // in one (B reads 0.7 of its partner). The plain paired t gives p = 0.16 here.
        let base: [Int: Double] = Dictionary(
            uniqueKeysWithValues: [100.0, 104, 98, 101, 103, 99, 100, 102, 97, 101].enumerated().map { ($0, $1) })
        let new: [Int: Double] = Dictionary(
            uniqueKeysWithValues: [110.0, 114.5, 108, 111, 113, 109, 150, 112, 70, 111].enumerated().map { ($0, $1) })
        let estimate = try #require(ChangeEstimate.paired(base: base, new: new))
        #expect(abs(estimate.pValue - 3.157596509825604e-10) / 3.157596509825604e-10 < 1e-6, "\(estimate.pValue)")
        #expect(estimate.degreesOfFreedom == 5)
        #expect(abs(estimate.relativeChange! - 0.09967123785025021) < 1e-12)
        #expect(abs(estimate.relativeInterval!.lower - 0.09779643812233842) < 1e-9)
        #expect(abs(estimate.relativeInterval!.upper - 0.10154923933205529) < 1e-9)
    }

    @Test func pairedOnLogRatiosMatchesScipy() throws {
        // Repetition 9 has no partner and is left out.
        let estimate = try #require(
            ChangeEstimate.paired(
                base: [0: 100, 1: 104, 2: 98, 3: 101, 9: 500],
                new: [0: 103, 1: 107.5, 2: 100.5, 3: 104.2]))
        #expect(abs(estimate.pValue - 0.0003966975111891954) < 1e-12)
        #expect(estimate.degreesOfFreedom == 3)
        #expect(abs(estimate.relativeChange! - 0.030207412155226987) < 1e-12)
        #expect(abs(estimate.relativeInterval!.lower - 0.024693182220370622) < 1e-9)
        #expect(abs(estimate.relativeInterval!.upper - 0.03575131607669911) < 1e-9)
    }

    @Test func zeroValuesAreComparedAsDifferences() throws {
        let estimate = try #require(ChangeEstimate.unpaired(base: [0, 0, 0], new: [1, 1.1, 0.9]))
        #expect(estimate.scale == .difference)
        #expect(abs(estimate.pValue - 0.003316758722356862) < 1e-12)
        #expect(estimate.relativeChange == nil, "no relative change from 0")
        #expect(abs(estimate.absoluteChange - 1) < 1e-12)
    }

    @Test func identicalValuesAreExact() throws {
        let same = try #require(ChangeEstimate.unpaired(base: [2, 2, 2], new: [2, 2]))
        #expect(same.pValue == 1 && same.relativeChange == 0)
        let moved = try #require(ChangeEstimate.unpaired(base: [1, 1], new: [2, 2]))
        #expect(moved.pValue == 0 && moved.relativeChange == 1)
    }

    @Test func tooFewValuesGiveNoEstimate() {
        #expect(ChangeEstimate.unpaired(base: [1], new: [1, 2]) == nil)
        #expect(ChangeEstimate.paired(base: [0: 1, 1: 2], new: [0: 1, 2: 2]) == nil)
    }
}

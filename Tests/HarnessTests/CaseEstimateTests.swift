import Harness
import Results
import Testing

/// Expected values from numpy and scipy.stats.t for the same process values: the figure is
/// exp(median(log v)), the spread std(log v, ddof=1) moderated as (ν s² + w s₀²) / (ν + w), and
/// the interval figure × exp(± t(0.975, ν + w) · √(2 · π/2 · s² / k + 2 σ²)).
@Suite("CaseEstimate against scipy")
struct CaseEstimateTests {
    static let values: [Double] = [10, 11, 12, 10.5]

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(abs(a), abs(b)) }

    @Test(
        """
        four processes alone: the median (the geometric mean of the middle two) \
        and a t prediction interval on their logarithms
        """)
    func unmoderated() throws {
        let estimate = try #require(CaseEstimate(values: Self.values, prior: nil, sittingSpread: 0))
        #expect(Self.close(estimate.value, 10.747092630102337))
        #expect(Self.close(estimate.spread, 0.07760551148937521) && estimate.ownSpread == estimate.spread)
        #expect(estimate.degreesOfFreedom == 3 && estimate.processes == 4)
        #expect(Self.close(estimate.repeatInterval.lower, 8.634441572160691))
        #expect(Self.close(estimate.repeatInterval.upper, 13.376661250728358))
    }

    @Test("moderated towards the run's spread, with the sitting's own spread added")
    func moderated() throws {
        let estimate = try #require(
            CaseEstimate(values: Self.values, prior: SpreadPrior(spread: 0.05, weight: 4), sittingSpread: 0.015))
        #expect(Self.close(estimate.spread, 0.06332213136086967))
        #expect(estimate.degreesOfFreedom == 7)
        #expect(Self.close(estimate.repeatInterval.lower, 9.325694842563312))
        #expect(Self.close(estimate.repeatInterval.upper, 12.385136115847105))
    }

    @Test("one process: bounded only by a prior")
    func oneProcess() throws {
        let alone = try #require(CaseEstimate(values: [20], prior: nil))
        #expect(Self.close(alone.value, 20) && alone.ownSpread == nil && alone.repeatInterval.upper == .infinity)
        let withPrior = try #require(
            CaseEstimate(values: [20], prior: SpreadPrior(spread: 0.05, weight: 4), sittingSpread: 0.015))
        #expect(Self.close(withPrior.repeatInterval.lower, 15.529251246326986))
        #expect(Self.close(withPrior.repeatInterval.upper, 25.75784200121103))
    }

    @Test("one process far from the rest does not move the figure")
    func robustFigure() throws {
        let estimate = try #require(CaseEstimate(values: [100, 101, 99, 400, 100.5], prior: nil))
        #expect(Self.close(estimate.value, 100.5))
    }

    @Test("no value, a zero or a non-finite value: no estimate")
    func noEstimate() {
        #expect(CaseEstimate(values: [], prior: nil) == nil)
        #expect(CaseEstimate(values: [3, 0], prior: nil) == nil)
        #expect(CaseEstimate(values: [3, .infinity], prior: nil) == nil)
    }

    @Test("the prior is the median of the cases' variances, so one wild case does not widen the rest")
    func prior() throws {
        let prior = try #require(SpreadPrior(ownSpreads: [0.01, 0.02, 0.03, 5.0]))
        // Variances 1e-4, 4e-4, 9e-4, 25: median (4e-4 + 9e-4) / 2.
        #expect(Self.close(prior.spread, (6.5e-4).squareRoot()))
        #expect(SpreadPrior(ownSpreads: [0.01, 0.02, 0.03]) == nil, "three cases are too few to speak for a family")
    }

    @Test("a run's estimates: each case moderated by its family, and a case with two wild processes stays wide")
    func runEstimates() throws {
        func result(_ workload: String, _ backend: String, _ medians: [Double]) -> CaseResult {
            var result = CaseResult(
                benchmarkCase: BenchmarkCase(workload: workload, backend: backend, parameters: [], allocator: .system))
            result.records = medians.enumerated().map { index, median in
                CaseRecord(
                    caseID: result.benchmarkCase.id, repetition: index, batch: 1,
                    nanosecondsPerOperation: [median * 0.99, median, median * 1.01],
                    metricsPerOperation: [:], unavailable: [:], cpus: [])
            }
            return result
        }
        let quiet = ["a", "b", "c", "d"].map { result("steady", $0, [100, 101, 99, 100.5]) }
        let wild = result("steady", "e", [100, 400, 100, 400])
        let estimates = RunEstimates(quiet + [wild])
        let calm = try #require(estimates[quiet[0].benchmarkCase.id])
        let split = try #require(estimates[wild.benchmarkCase.id])
        #expect(
            calm.comparisonInterval.upper / calm.comparisonInterval.lower < 1.05,
            "a quiet case of a quiet family compares narrowly")
        #expect(
            split.comparisonInterval.upper / split.comparisonInterval.lower > 3,
            "a case whose processes split keeps its own spread")
        #expect(estimates["steady/none//system"] == nil)
    }
}

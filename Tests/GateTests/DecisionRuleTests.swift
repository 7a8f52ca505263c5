import FoundationEssentials
import Counters
import Gate
import Results
import Testing

/// The decision rule on hand-made runs: a clear regression, a clear improvement, noise, a change
/// below the minimum effect, one within the absolute limit; what cannot be compared, and why.
@Suite struct DecisionRuleTests {
    @Test func clearRegressionIsFlagged() throws {
        let comparison = try Comparison(
            base: run(["spin": [100, 101, 99, 100.5, 99.5]]),
            new: run(["spin": [120, 121, 119, 120.5, 119.5]]))
        let row = try #require(comparison.rows.first { $0.metric == Metric.nanosecondsPerOperation.name })
        #expect(row.verdict == .regression)
        #expect(abs(row.estimate!.relativeChange! - 0.2) < 0.01)
        #expect(comparison.regressions.count == 1)
    }

    @Test func aCaseFailingOnlyInTheNewRunIsANewFailure() throws {
        let base = run(["spin": [100, 101, 99, 100]])
        var new = run(["spin": [100, 101, 99, 100]])
        new.cases[0].failures = ["crashed: killed by SIGSEGV (11)"]
        let comparison = try Comparison(base: base, new: new)
        let row = try #require(comparison.rows.first)
        #expect(row.metric == "processes")
        #expect(
            row.verdict
                == .newFailure(
                    "1 of 5 processes failed in the new run, none in the base: crashed: killed by SIGSEGV (11)"))
        #expect(comparison.failing.count == 1 && comparison.regressions.isEmpty)
        // The processes that finished are still compared.
        #expect(
            comparison.rows.contains {
                $0.metric == Metric.nanosecondsPerOperation.name && $0.verdict.name == "no change"
            })

        var failingBefore = base
        failingBefore.cases[0].failures = ["hung: still running after the 60.0 seconds deadline; killed"]
        #expect(try Comparison(base: failingBefore, new: new).failing.isEmpty, "failing in both runs is not new")
        #expect(try Comparison(base: failingBefore, new: base).failing.isEmpty, "fixed in the new run")
    }

    @Test func clearImprovementIsNotARegression() throws {
        let comparison = try Comparison(
            base: run(["spin": [100, 101, 99, 100.5, 99.5]]),
            new: run(["spin": [80, 81, 79, 80.5, 79.5]]))
        #expect(comparison.rows.map(\.verdict) == [.improvement])
        #expect(comparison.regressions.isEmpty)
    }

    @Test func aLargeMoveTheRunsCannotTellIsUndecidedNotNoChange() throws {
        // A smoke run: 2 processes a side, −41%, but the two processes of each side disagree.
        let comparison = try Comparison(base: run(["spin": [100, 170]]), new: run(["spin": [50, 110]]))
        let verdict = try #require(comparison.rows.first?.verdict)
        #expect(verdict.name == "undecided", "\(verdict)")
        #expect(verdict.reason?.contains("too few processes to tell") == true && !verdict.fails, "\(verdict)")
    }

    @Test func noiseIsNoChange() throws {
        // Means 100 and 103, but the processes disagree by ±10%: not significant.
        let comparison = try Comparison(
            base: run(["spin": [90, 110, 95, 105, 100]]),
            new: run(["spin": [93, 113, 98, 108, 103]]))
        let verdict = try #require(comparison.rows.first?.verdict)
        #expect(verdict.name == "no change")
        #expect(verdict.reason!.hasPrefix("not significant"), "\(verdict)")
    }

    @Test func significantChangeBelowTheMinimumEffectIsNoChange() throws {
        // +2%, very tight: significant, but under the time default's 3% minimum effect.
        let comparison = try Comparison(
            base: run(["spin": [100, 100.01, 99.99, 100, 100.02]]),
            new: run(["spin": [102, 102.01, 101.99, 102, 102.02]]))
        let row = try #require(comparison.rows.first)
        #expect(row.adjustedPValue! < 1e-6)
        #expect(row.verdict.reason?.hasPrefix("below the minimum effect") == true, "\(row.verdict)")
    }

    @Test func regressionWithinTheAbsoluteLimitIsNoChange() throws {
        // +20% of a 1 ns operation is 0.2 ns: under the time default's 0.25 ns.
        let comparison = try Comparison(
            base: run(["tiny": [1, 1.001, 0.999, 1]]), new: run(["tiny": [1.2, 1.201, 1.199, 1.2]]))
        #expect(
            comparison.rows.first?.verdict.reason?.contains("≤ 0.25 ns") == true, "\(comparison.rows.first!.verdict)")
    }

    @Test func thresholdsOverridesDecide() throws {
        // The same +20% is a regression once the override lowers the absolute limit to 0.
        let thresholds = try Thresholds.parse(
            #"{"schema": 1, "overrides": [{"workload": "tiny", "maximumAbsoluteRegression": 0}]}"#)
        let comparison = try Comparison(
            base: run(["tiny": [1, 1.001, 0.999, 1]]), new: run(["tiny": [1.2, 1.201, 1.199, 1.2]]),
            thresholds: thresholds)
        #expect(comparison.rows.first?.verdict == .regression)
    }

    @Test func holmCorrectionTurnsAMarginalChangeIntoNoChange() throws {
        // One case's p is about 0.0035: below α = 0.01 alone, not among three tests (Holm × 3).
        let base = ["a": [100.0, 104, 98, 101], "b": [50.0, 50, 50, 50], "c": [70.0, 70, 70, 70]]
        let new = ["a": [108.0, 112, 105, 110], "b": [50.0, 50, 50, 50], "c": [70.0, 70, 70, 70]]
        let alone = try Comparison(base: run(["a": base["a"]!]), new: run(["a": new["a"]!]))
        #expect(alone.rows.first?.verdict == .regression)
        #expect(alone.rows.first!.estimate!.pValue > 0.0034 && alone.rows.first!.estimate!.pValue < 0.01)
        let thresholds = try Thresholds.parse(#"{"schema": 1, "defaults": {"time": {"significanceLevel": 0.005}}}"#)
        let together = try Comparison(base: run(base), new: run(new), thresholds: thresholds)
        let row = try #require(together.rows.first { $0.caseID.hasPrefix("a/") })
        // +8% is beyond the 5% limit: not "no change" but undecided, the runs too small to tell.
        #expect(
            row.verdict.name == "undecided" && row.verdict.reason?.contains("not significant") == true, "\(row.verdict)"
        )
    }

    @Test func countsAreComparedAcrossMachinesTimesAreNot() throws {
        let base = run(["spin": [100, 101, 99]], allocations: [1, 1, 1])
        let new = run(["spin": [150, 151, 149]], allocations: [2, 2, 2], cpuModel: "Another CPU")
        let comparison = try Comparison(base: base, new: new)
        let time = try #require(comparison.rows.first { $0.metric == Metric.nanosecondsPerOperation.name })
        #expect(time.verdict.name == "not comparable")
        #expect(time.verdict.reason?.contains("CPU: Test CPU vs Another CPU") == true, "\(time.verdict)")
        let allocations = try #require(comparison.rows.first { $0.metric == "jemalloc.arena-requests" })
        #expect(allocations.verdict == .regression)
        let forced = try Comparison(base: base, new: new, force: true)
        #expect(forced.regressions.count == 2)
    }

    @Test func timesOfARunThatCountedAllocationsAreNotComparedWithOneThatDidNot() throws {
        let base = run(["spin": [100, 101, 99]], allocations: [1, 1, 1])
        var new = run(["spin": [150, 151, 149]], allocations: [2, 2, 2])
        new.countedAllocations = true
        let comparison = try Comparison(base: base, new: new)
        let time = try #require(comparison.rows.first { $0.metric == Metric.nanosecondsPerOperation.name })
        #expect(time.verdict.name == "not comparable")
        #expect(
            time.verdict.reason?.contains("allocations were counted in the new run only") == true, "\(time.verdict)")
        #expect(
            comparison.rows.first { $0.metric == "jemalloc.arena-requests" }?.verdict == .regression,
            "counts are still compared")
        #expect(try Comparison(base: base, new: new, force: true).regressions.count == 2)
        // Both counted: compared as usual.
        var bothBase = base
        bothBase.countedAllocations = true
        #expect(try Comparison(base: bothBase, new: new).countingDifference == nil)
    }

    @Test func whatCannotBeComparedSaysWhy() throws {
        let base = run(["both": [100, 101], "old": [5, 5], "single": [3, 3]])
        let new = run(["both": [100, 101], "new": [7, 7], "single": [3]])
        let comparison = try Comparison(base: base, new: new)
        func reason(_ prefix: String) -> String? {
            comparison.rows.first { $0.caseID.hasPrefix(prefix) }?.verdict.reason
        }
        #expect(reason("old/") == "only in the base run")
        #expect(reason("new/") == "only in the new run")
        #expect(reason("single/")?.contains("at least 2 processes on each side") == true)
        #expect(comparison.rows.first { $0.caseID.hasPrefix("both/") }?.verdict.name == "no change")
        #expect(
            comparison.rows.first?.verdict.name == "not comparable",
            "regressions first, then not comparable, then no change")
    }

    @Test func aMetricNeitherFileDescribesIsNotComparedButSaysWhy() throws {
        // Its kind decides how tightly it is gated and whether it compares across machines; the
        // gate does not guess it from the name.
        let comparison = try Comparison(
            base: run(["spin": [100, 101, 99]], allocations: [1, 1, 1], metrics: []),
            new: run(["spin": [100, 101, 99]], allocations: [2, 2, 2], metrics: []))
        let row = try #require(comparison.rows.first { $0.metric == "jemalloc.arena-requests" })
        #expect(row.verdict.name == "not comparable" && row.described == nil)
        #expect(row.verdict.reason?.contains("not described in the results file") == true, "\(row.verdict)")
        #expect(comparison.rows.first { $0.metric == Metric.nanosecondsPerOperation.name }?.verdict.name == "no change")
    }

    @Test func aHigherIsBetterMetricRegressesWhenItFalls() {
        let share = Metric("fairness", unit: .share, kind: .count, polarity: .higherIsBetter, heading: "fairness")
        let falling = ChangeEstimate.unpaired(base: [1.0, 1.01, 0.99], new: [0.5, 0.51, 0.49])!
        let rising = ChangeEstimate.unpaired(base: [0.5, 0.51, 0.49], new: [1.0, 1.01, 0.99])!
        let limits = Thresholds().limits(caseID: "a", workload: "a", metric: share)
        #expect(Comparison.decide(falling, adjustedPValue: 0.001, limits: limits, metric: share) == .regression)
        #expect(Comparison.decide(rising, adjustedPValue: 0.001, limits: limits, metric: share) == .improvement)
    }

    @Test func runsWithNoCaseInCommonAreAnError() {
        #expect(throws: Comparison.Problem.self) { try Comparison(base: run(["a": [1, 2]]), new: run(["b": [1, 2]])) }
    }

    @Test func excludedMetricsAreLeftOut() throws {
        let thresholds = try Thresholds.parse(#"{"schema": 1, "overrides": [{"metric": "time", "compare": false}]}"#)
        let comparison = try Comparison(
            base: run(["spin": [100, 101, 99]], allocations: [1, 1, 1]),
            new: run(["spin": [200, 201, 199]], allocations: [1, 1, 1]), thresholds: thresholds)
        #expect(comparison.rows.map(\.metric) == ["jemalloc.arena-requests"])
        #expect(comparison.excluded == 1)
        #expect(comparison.regressions.isEmpty)
    }

    @Test func pairedComparisonCancelsDrift() throws {
        // Both builds drift together from 100 to 130 over the run; B is 8% slower in every pair.
        let drift = [100.0, 110, 120, 130]
        let base = run(["spin": drift]), new = run(["spin": zip(drift, [1.08, 1.081, 1.079, 1.08]).map { $0 * $1 }])
        let unpaired = try Comparison(base: base, new: new).rows.first?.verdict
        #expect(
            unpaired?.name == "undecided" && unpaired?.reason?.contains("not significant") == true,
            "unpaired, the drift hides the change: \(String(describing: unpaired))")
        #expect(try Comparison(base: base, new: new, pairing: .paired).rows.first?.verdict == .regression)
    }

    // MARK: - Hand-made runs

    /// A run with one case per entry, `workload/none/-/system`, one process per value (every sample
    /// of a process equal to its value), on a machine whose CPU is `cpuModel`.
    func run(
        _ cases: [String: [Double]], allocations: [Double]? = nil, cpuModel: String = "Test CPU",
        metrics: [Metric] = CounterSet.catalogue
    ) -> RunResults {
        let results = cases.keys.sorted().map { name -> CaseResult in
            let benchmarkCase = BenchmarkCase(
                workload: name, backend: BenchmarkCase.noBackend, parameters: [], allocator: .system)
            var result = CaseResult(benchmarkCase: benchmarkCase)
            result.records = cases[name]!.enumerated().map { repetition, value in
                CaseRecord(
                    caseID: benchmarkCase.id, repetition: repetition, batch: 1,
                    nanosecondsPerOperation: [value, value, value],
                    metricsPerOperation: allocations.map { ["jemalloc.arena-requests": $0[repetition]] } ?? [:],
                    unavailable: [:], cpus: [0])
            }
            return result
        }
        let environment = try! JSONDecoder().decode(
            RunEnvironment.self,
            from: Data(
                """
                {"cpuModel": "\(cpuModel)", "onlineCPUs": 2, "kernel": "Linux 6 x86_64", "virtualMachine": "no",
                 "cpuGovernor": "performance", "perfEventParanoid": "2", "swiftCompiler": "Swift 6.3",
                 "gitCommit": "test", "hostname": "test"}
                """.utf8))
        return RunResults(
            environment: environment, counterAvailability: [:], metrics: metrics, suite: .quick, repetitions: 2,
            sampleTimeNanoseconds: 1_000_000, cases: results)
    }
}

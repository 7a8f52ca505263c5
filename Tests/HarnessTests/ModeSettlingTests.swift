import Results
import Testing

@testable import Harness

/// Which cases a run gives more processes after its repetitions: those split between modes whose
/// shares are not known yet, the cheapest first, within what is left of the budget.
@Suite("MeasuredRun: more processes where a case's processes fell into modes")
struct ModeSettlingTests {
    static func result(_ name: String, _ values: [Double]) -> CaseResult {
        let benchmarkCase = BenchmarkCase(workload: "w", backend: name, parameters: [], allocator: .system)
        var result = CaseResult(benchmarkCase: benchmarkCase)
        result.records = values.enumerated().map { repetition, value in
            CaseRecord(
                caseID: benchmarkCase.id, repetition: repetition, batch: 1, nanosecondsPerOperation: [value, value],
                metricsPerOperation: [:], unavailable: [:], workloadMetrics: nil, cpus: [0])
        }
        return result
    }

    static let cases = [
        result("steady", [10, 10.5, 11, 10.2]),
        result("split", [10, 11, 12, 2_000]),
        result("expensive-split", [100, 5_000, 110, 105]),
        result("another-steady", [20, 21, 22, 23]),
    ]

    @Test("split cases only, cheapest first, while they fit")
    func chosen() {
        let seconds = [0.1, 0.2, 3.0, 0.1]
        let all = MeasuredRun.casesToSettle(Self.cases, secondsPerProcess: seconds, secondsLeft: 100)
        #expect(all.unsettled == 2 && all.chosen == [1, 2])
        // Two processes of the expensive case (6 s) do not fit in 5 s; the cheap one's do.
        let some = MeasuredRun.casesToSettle(Self.cases, secondsPerProcess: seconds, secondsLeft: 5)
        #expect(some.unsettled == 2 && some.chosen == [1])
        #expect(MeasuredRun.casesToSettle(Self.cases, secondsPerProcess: seconds, secondsLeft: 0.3).chosen.isEmpty)
    }

    @Test("a case whose processes changed mode as they ran gets no more: more would measure the mix again")
    func switching() {
        // Two processes spent half their samples at 10 ns and half at 1,000, a third ran slow
        // throughout: split between processes too, but by how they mixed the modes.
        func process(_ repetition: Int, _ samples: [Double]) -> CaseRecord {
            CaseRecord(
                caseID: "w/switching", repetition: repetition, batch: 1, nanosecondsPerOperation: samples,
                metricsPerOperation: [:], unavailable: [:], workloadMetrics: nil, cpus: [0])
        }
        var mixed = CaseResult(
            benchmarkCase: BenchmarkCase(workload: "w", backend: "switching", parameters: [], allocator: .system))
        mixed.records = [
            process(0, [10, 10, 1_000, 1_000]), process(1, [10, 1_000, 10, 1_000]),
            process(2, Array(repeating: 4_000, count: 4)), process(3, Array(repeating: 4_000, count: 4)),
        ]
        #expect(ModeSwitching(mixed.records) != nil, "the premise: the case switched")
        #expect(RunEstimates([mixed])[mixed.benchmarkCase.id]?.modes.isEmpty == false, "the premise: process modes")
        let chosen = MeasuredRun.casesToSettle(
            [mixed, Self.cases[1]], secondsPerProcess: [0.1, 0.1], secondsLeft: 100)
        #expect(chosen.unsettled == 1 && chosen.chosen == [1], "\(chosen)")
    }

    @Test("a case whose modes' shares are known to ±15 points needs no more")
    func settled() {
        // 30 fast processes and 30 slow: each share within about ±12 points.
        let many = Self.result("settled", Array(repeating: 10, count: 30) + Array(repeating: 1_000, count: 30))
        #expect(MeasuredRun.casesToSettle([many], secondsPerProcess: [0.1], secondsLeft: 100).unsettled == 0)
    }
}

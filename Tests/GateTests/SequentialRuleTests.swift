#if canImport(Glibc)
import Glibc
#endif
import Gate
import Harness  // SeededGenerator
import Results
import Testing

@Suite("SequentialRule: pairs decided as they come")
struct SequentialRuleTests {
    @Test("the looks grow about 1.5 times from the first to the most pairs, even, and the shares of α add up to 1")
    func looks() {
        #expect(SequentialRule(firstLook: 6, maximumPairs: 40).looks == [6, 10, 16, 24, 36, 40])
        #expect(SequentialRule(firstLook: 6, maximumPairs: 6).looks == [6])
        #expect(SequentialRule(firstLook: 4, maximumPairs: 9).looks == [4, 6, 9])
        let rule = SequentialRule(firstLook: 6, maximumPairs: 40)
        let total = Double(rule.looks.count - 1) * rule.share(last: false) + rule.share(last: true)
        #expect(abs(total - 1) < 1e-12)
        #expect(SequentialRule(firstLook: 6, maximumPairs: 6).share(last: true) == 1)
    }

    /// B's values are A's times `factor`, each pair's log-ratio spread by `jitter` (a fixed pattern).
    static func runs(pairs: Int, factor: Double, jitter: Double) -> (RunResults, RunResults) {
        let pattern: [Double] = [-1, 1, -0.5, 0.5, 0, 0.25]
        let a: RunResults, b0: RunResults
        (a, b0) = SimulatedGateTests.pairedRuns(pairs: pairs, factor: 1, noise: false)
        var b = b0
        for (index, result) in b.cases.enumerated() {
            b.cases[index].records = result.records.map { record in
                CaseRecord(
                    caseID: record.caseID, repetition: record.repetition, batch: record.batch,
                    nanosecondsPerOperation: record.nanosecondsPerOperation.map {
                        $0 * factor * exp(jitter * pattern[record.repetition % pattern.count])
                    },
                    metricsPerOperation: [:], unavailable: [:], cpus: record.cpus)
            }
        }
        return (a, b)
    }

    @Test(
        """
        a case whose interval lies within the limits settles; a 3-fold change settles as decided; \
        a noisy 10% stays open
        """)
    func states() throws {
        let rule = SequentialRule(firstLook: 6, maximumPairs: 40)
        let (sameA, sameB) = Self.runs(pairs: 6, factor: 1, jitter: 0.01)
        let same = rule.states(try Comparison(base: sameA, new: sameB, pairing: .paired))
        #expect(same.values.allSatisfy { $0 == .settled("ns-per-op within the limits") }, "\(same)")
        let (slowA, slowB) = Self.runs(pairs: 6, factor: 3, jitter: 0.01)
        let slow = rule.states(try Comparison(base: slowA, new: slowB, pairing: .paired))
        #expect(slow.values.allSatisfy { $0 == .settled("ns-per-op regression") }, "\(slow)")
        let (noisyA, noisyB) = Self.runs(pairs: 6, factor: 1.1, jitter: 0.08)
        let noisy = rule.states(try Comparison(base: noisyA, new: noisyB, pairing: .paired))
        #expect(noisy.values.allSatisfy { $0 == .open }, "\(noisy)")
    }

    @Test("a row's p-value counts each look at its share of α; a case that did not run again is not looked at twice")
    func record() throws {
        let rule = SequentialRule(firstLook: 6, maximumPairs: 40)
        var record = SequentialRecord(rule: rule)
        let (a, b) = Self.runs(pairs: 6, factor: 1.1, jitter: 0.08)
        let comparison = try Comparison(base: a, new: b, pairing: .paired)
        let ids = Set(comparison.rows.map(\.caseID))
        let pairs = Dictionary(uniqueKeysWithValues: ids.map { ($0, 6) })
        record.record(comparison, pairs: pairs)
        record.record(comparison, pairs: pairs)  // the same pairs: not a second look
        let row = comparison.rows[0]
        let p = try #require(row.estimate?.pValue)
        // Open at the end: its only look is its last, at 90% of α.
        #expect(record.pValue(caseID: row.caseID, metric: row.metric) == min(1, p / 0.9))
        #expect(record.settled.isEmpty)
        #expect(record.pValue(caseID: "no/such/case", metric: "ns-per-op") == nil)
    }

    /// What `bench ab --budget` does without a time limit: every open case goes on to the next look.
    static func sequentialComparison(_ a: RunResults, _ b: RunResults, rule: SequentialRule) throws -> (
        Comparison, [String: Int]
    ) {
        var record = SequentialRecord(rule: rule)
        var pairs = Dictionary(uniqueKeysWithValues: a.cases.map { ($0.benchmarkCase.id, rule.looks[0]) })
        func truncated(_ run: RunResults) -> RunResults {
            var run = run
            run.cases = run.cases.map { result in
                var result = result
                result.records = result.records.filter { $0.repetition < pairs[result.benchmarkCase.id]! }
                return result
            }
            return run
        }
        for (look, _) in rule.looks.enumerated() {
            let states = record.record(
                try Comparison(base: truncated(a), new: truncated(b), pairing: .paired), pairs: pairs)
            let open = states.filter { $0.value == .open }.keys
            guard look + 1 < rule.looks.count, !open.isEmpty else { break }
            for id in open { pairs[id] = rule.looks[look + 1] }
        }
        return (try Comparison(base: truncated(a), new: truncated(b), pairing: .paired, sequential: record), pairs)
    }

    @Test("simulated, seeded: A/A cells flagged at most 1% of the time, and most stop before the most pairs")
    func falseAlarms() throws {
        var generator = SeededGenerator(seed: 0x5E_0A)
        let rule = SequentialRule(firstLook: 6, maximumPairs: 40)
        var alarms = 0, cells = 0, pairsUsed = 0
        for _ in 0..<200 {
            let (a, b) = SimulatedGateTests.pairedRuns(pairs: 40, factor: 1, generator: &generator)
            let (comparison, pairs) = try Self.sequentialComparison(a, b, rule: rule)
            alarms += comparison.regressions.count
            cells += pairs.count
            pairsUsed += pairs.values.reduce(0, +)
        }
        #expect(Double(alarms) / Double(cells) <= 0.01, "false alarms: \(alarms) of \(cells)")
        #expect(Double(pairsUsed) / Double(cells) < 30, "mean pairs per cell: \(Double(pairsUsed) / Double(cells))")
    }

    @Test("simulated, seeded: a 10% slowdown found in at least 95% of cells, as with 40 fixed pairs")
    func detection() throws {
        var generator = SeededGenerator(seed: 0x5E_10)
        let rule = SequentialRule(firstLook: 6, maximumPairs: 40)
        var detected = 0, cells = 0
        for _ in 0..<100 {
            let (a, b) = SimulatedGateTests.pairedRuns(pairs: 40, factor: 1.10, generator: &generator)
            detected += try Self.sequentialComparison(a, b, rule: rule).0.regressions.count
            cells += SimulatedGateTests.cells
        }
        #expect(Double(detected) / Double(cells) >= 0.95, "detected \(detected) of \(cells)")
    }
}

import Results
import RuntimeKit
import Testing
@testable import Reports

@Suite("a report across machines")
struct MachineComparisonTests {
    /// The fixture run on a second machine that the children could use one CPU of, where
    /// spawn's chain goes the other way: libdispatch clearly ahead of work-stealing.
    static let other: RunResults = {
        var run = Fixture.run
        run.environment.usableCPUs = UsableCPUs(affinity: [0], quota: nil)
        run.cases = run.cases.map { result in
            guard result.benchmarkCase.id == "spawn/work-stealing/pattern=chain/system" else { return result }
            return Fixture.measured("spawn", "work-stealing", [("pattern", "chain")], samples: Fixture.constant(900))
        }
        return run
    }()

    /// The fixture run with its usable CPUs recorded, both of its two: the first machine.
    static let first: RunResults = {
        var run = Fixture.run
        run.environment.usableCPUs = UsableCPUs(affinity: [0, 1], quota: nil)
        return run
    }()

    static func comparison(_ runs: [RunResults]) throws -> MachineComparison {
        try MachineComparison(runs.enumerated().map { (file: "m\($0.offset)/results.json", run: $0.element) })
    }

    @Test(
        """
        each machine's clear winner is checked on every machine: holds where it is clear, reversed where the other wins
        """)
    func winnersChecked() throws {
        let comparison = try Self.comparison([Self.first, Self.other])
        #expect(comparison.machines.map(\.label) == ["M1", "M2"])
        #expect(comparison.alike.isEmpty, "the usable CPUs tell them apart")
        let firstWins = try #require(
            comparison.winners.first { $0.text == "spawn pattern=chain: work-stealing clearly faster than libdispatch" }
        )
        #expect(firstWins.outcomes == [.holds, .reversed])
        let secondWins = try #require(
            comparison.winners.first { $0.text == "spawn pattern=chain: libdispatch clearly faster than work-stealing" }
        )
        #expect(secondWins.outcomes == [.reversed, .holds])
        #expect(secondWins.exceptions(comparison.machines).map(\.label) == ["M1"])
        // Every other clear winner of the fixture holds on both.
        #expect(comparison.winners.filter { !$0.holdsEverywhere }.count == 2)
        #expect(comparison.winners.count > 2)
    }

    @Test("runs of one machine are alike and agree everywhere; each claim has a verdict per machine")
    func sameMachine() throws {
        let comparison = try Self.comparison([Self.first, Self.first, Self.other])
        #expect(comparison.alike == [["M1", "M2"]])
        #expect(comparison.claims.count == RunAnalysis(Fixture.run).verdicts.count)
        #expect(comparison.claims.allSatisfy { $0.verdicts.count == 3 && !$0.verdicts.contains(nil) })
        let report = MachineReport.markdown(comparison, charts: [])
        #expect(report.contains("M1 and M2 have the same identity"), "\(report.prefix(2000))")
    }

    @Test("runs of different suites are refused, naming both files and suites")
    func differentSuites() throws {
        var smoke = Fixture.run
        smoke.suite = .smoke
        #expect(
            throws: MachineComparison.Refusal.differentSuites(
                first: "m0/results.json", firstSuite: .quick,
                other: "m1/results.json", otherSuite: .smoke)
        ) {
            try Self.comparison([Fixture.run, smoke])
        }
    }

    @Test(
        """
        report.md: a column per machine and its ratio to M1, the statements that do not hold first; \
        machines.csv: a row per machine and case
        """)
    func files() throws {
        var partial = Self.other
        partial.cases.removeAll { $0.benchmarkCase.workload == "semaphore" }
        let comparison = try Self.comparison([Self.first, partial])
        let outputs = Dictionary(
            uniqueKeysWithValues: MachineReport.outputs(of: comparison).map { ($0.path, $0.contents) })
        let report = try #require(outputs["report.md"])
        #expect(report.contains("| case | M1 ns/op | M2 ns/op | M2 ÷ M1 |"), "\(report)")
        #expect(
            report.contains("| work-stealing/pattern=chain/system | 100 (") && report.contains("**9.00×**"), "\(report)"
        )
        #expect(
            report.contains("| libdispatch/pattern=pingpong,semaphore=backend/system | 9000 (")
                && report.contains("| — | — |"), "\(report)")
        let table = report.components(separatedBy: "## What should I use, on every machine?")[1]
        let firstRow = try #require(
            table.split(separator: "\n").first {
                $0.hasPrefix("| spawn") || $0.hasPrefix("| queue") || $0.hasPrefix("| apply")
            })
        #expect(firstRow.hasSuffix("no: reversed on M2 |") || firstRow.hasSuffix("no: reversed on M1 |"), "\(firstRow)")
        #expect(report.contains("| M2 | `m1/results.json` | Test CPU | 1 / 2 |"), "\(report)")
        let csv = try #require(outputs[MachineReport.csvFileName]).split(separator: "\r\n")
        #expect(csv.count == 1 + Fixture.run.cases.count + partial.cases.count)
        #expect(
            csv.contains {
                $0.hasPrefix("M2,m1/results.json,spawn/work-stealing/pattern=chain/system,")
                    && abs((Double($0.split(separator: ",").last!) ?? 0) - 9) < 1e-9
            }, "\(csv)")
    }

    @Test("charts: where a run's report draws one per backend, one per backend with a series per machine")
    func charts() throws {
        let comparison = try Self.comparison([Self.first, Self.other])
        let charts = MachineCharts.all(comparison)
        let stride = try #require(
            charts.first { $0.file == "charts/stride-body-0ns-iterations-1000-libdispatch.svg" },
            "\(charts.map(\.file))")
        #expect(stride.svg.contains(">M1<") && stride.svg.contains(">M2<"))
        let scaling = try #require(
            charts.first { $0.file.hasPrefix("charts/scaling-") && $0.file.hasSuffix("-libdispatch---queue-sync.svg") },
            "\(charts.map(\.file))")
        // 2xcpus resolves on each machine's own CPUs: 2 on M1, 1 on M2 (pinned to one).
        #expect(
            scaling.svg.contains("M1 (2 CPUs)") && scaling.svg.contains("M2 (1 CPU)"), "\(scaling.svg.prefix(3000))")
        #expect(charts.contains { $0.file.hasSuffix("-pthread-mutex.svg") })
    }
}

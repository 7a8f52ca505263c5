import FoundationEssentials
import Results
import RuntimeKit
import Testing
@testable import Reports

@Suite("a history of runs")
struct RunHistoryTests {
    /// The fixture run started at `second`, at `commit`, with spawn's chain on work-stealing at `chain` ns.
    static func run(
        _ second: Int64, commit: String = "0123456789abcdef0123456789abcdef01234567", chain: Double = 100,
        cpus: [Int] = [0, 1]
    ) -> RunResults {
        var run = Fixture.run
        run.started = RunResults.Instant(secondsSinceEpoch: second)
        let environment = String(decoding: try! JSONEncoder().encode(run.environment), as: UTF8.self)
            .replacing("0123456789abcdef0123456789abcdef01234567", with: commit)
        run.environment = try! JSONDecoder().decode(RunEnvironment.self, from: Data(environment.utf8))
        run.environment.usableCPUs = UsableCPUs(affinity: cpus, quota: nil)
        run.cases = run.cases.map { result in
            guard result.benchmarkCase.id == "spawn/work-stealing/pattern=chain/system" else { return result }
            return Fixture.measured("spawn", "work-stealing", [("pattern", "chain")], samples: Fixture.constant(chain))
        }
        return run
    }

    static let chain = "spawn/work-stealing/pattern=chain/system"

    @Test("runs are ordered by the time they started, a tie in the order given; two machines are two series")
    func orderAndSplit() throws {
        let files = [
            ("c", Self.run(300, chain: 3)), ("a", Self.run(100, chain: 1)), ("x", Self.run(200, cpus: [0])),
            ("b", Self.run(300, chain: 2)), ("y", Self.run(100, cpus: [0])),
        ]
        let histories = try RunHistory.split(files.map { (file: $0.0, run: $0.1) })
        #expect(histories.map(\.label) == ["M1", "M2"])
        #expect(histories[0].runs.map(\.file) == ["a", "c", "b"])
        #expect(histories[1].runs.map(\.file) == ["y", "x"])
        let trend = try #require(histories[0].trends.first { $0.caseID == Self.chain && $0.metric == .figure })
        #expect(trend.values.map { $0.map { ($0 * 1000).rounded() / 1000 } } == [1, 3, 2])
        #expect(trend.heading == "ns/op" && trend.intervals.allSatisfy { $0 != nil })
    }

    @Test("refused: runs of two suites, a run without a start time")
    func refusals() {
        var smoke = Self.run(200)
        smoke.suite = .smoke
        #expect(
            throws: RunHistory.Refusal.differentSuites(first: "a", firstSuite: .quick, other: "b", otherSuite: .smoke)
        ) {
            try RunHistory.split([(file: "a", run: Self.run(100)), (file: "b", run: smoke)])
        }
        var old = Self.run(200)
        old.started = nil
        #expect(throws: RunHistory.Refusal.noStartTime(file: "old")) {
            try RunHistory.split([(file: "a", run: Self.run(100)), (file: "old", run: old)])
        }
    }

    @Test(
        """
        Otava's input: a row per run, runs of one second a second apart, only trends measured in every run; \
        names quoted in YAML
        """)
    func otavaInput() throws {
        var partial = Self.run(100)
        partial.cases.removeAll { $0.benchmarkCase.workload == "semaphore" }
        let history = try #require(
            try RunHistory.split(
                [
                    (file: "a", run: partial), (file: "b", run: Self.run(100, chain: 110)),
                    (file: "c", run: Self.run(105)),
                ], counters: ["task-clock"]
            ).first)
        let csv = OtavaInput.csv(history).split(separator: "\n")
        #expect(csv.count == 4)
        #expect(csv[1].hasPrefix("1970-01-01T00:01:40Z,0123456789abcdef0123456789abcdef01234567,"))
        #expect(csv[2].hasPrefix("1970-01-01T00:01:41Z,") && csv[3].hasPrefix("1970-01-01T00:01:45Z,"), "\(csv)")
        let header = ResultsCSV.row(["time", "commit"] + OtavaInput.analysed(history).map(\.name))
        #expect(csv[0] == header)
        #expect(
            OtavaInput.analysed(history).contains { $0.name == "spawn/work-stealing/pattern=outside/system task-clock" }
        )
        #expect(!OtavaInput.analysed(history).contains { $0.caseID.hasPrefix("semaphore/") })
        #expect(history.trends.contains { $0.caseID.hasPrefix("semaphore/") && !$0.isComplete })
        let yaml = OtavaInput.configuration([history], directory: "/out", minimumChange: 0.05)
        #expect(
            yaml.contains(
                "#   OTAVA_CONFIG=/out/otava.yaml otava analyze runtimebench-M1 --since 1970-01-01T00:01:40Z "
                    + "--until 1970-01-01T00:01:46Z -M 0.05\n"), "\(yaml)")
        #expect(yaml.contains("    file: \"/out/otava-M1.csv\"\n"))
        #expect(
            yaml.contains(
                "      \"queue-vs-lock/none/"
                    + "guard=pthread-mutex,threads=1,resource=counter,critical=0ns,outside=0ns/system\":\n"
                    + "        column: \"queue-vs-lock/none/"
                    + "guard=pthread-mutex,threads=1,resource=counter,critical=0ns,outside=0ns/system\"\n"
                    + "        direction: -1\n"), "\(yaml)")
    }

    @Test(
        """
        Otava's JSON read back: the change, its run and p-value; a change in an unknown trend or at run 0 is unreadable
        """)
    func changePoints() throws {
        let json = """
            {"runtimebench-M1": [{"time": 1795132800, "attributes": {"commit": "c20"}, "changes": [{"metric": "a", \
            "index": 19, \
            "time": 1795132800, "forward_change_percent": "10", "magnitude": "0.1", "mean_before": "100.0", \
            "stddev_before": "1", \
            "mean_after": "110.0", "stddev_after": "1", "pvalue": "0.000000"}]}]}
            """
        let points = try ChangePoint.parse(json, test: "runtimebench-M1", trends: ["a", "b"], runs: 30)
        #expect(points == [ChangePoint(trend: "a", run: 19, meanBefore: 100, meanAfter: 110, pValue: 0)])
        #expect(abs(points[0].change - 0.1) < 1e-12)
        #expect(throws: ChangePoint.UnreadableOutput.self) {
            try ChangePoint.parse(json, test: "runtimebench-M1", trends: ["b"], runs: 30)
        }
        #expect(throws: ChangePoint.UnreadableOutput.self) {
            try ChangePoint.parse(json, test: "runtimebench-M1", trends: ["a"], runs: 19)
        }
        #expect(throws: ChangePoint.UnreadableOutput.self) {
            try ChangePoint.parse(json, test: "runtimebench-M2", trends: ["a"], runs: 30)
        }
        #expect(throws: ChangePoint.UnreadableOutput.self) {
            try ChangePoint.parse("INFO: no JSON", test: "runtimebench-M1", trends: ["a"], runs: 30)
        }
        #expect(
            try ChangePoint.parse("{\"runtimebench-M1\": []}", test: "runtimebench-M1", trends: ["a"], runs: 30).isEmpty
        )
    }

    @Test(
        """
        report.md: each change point with the runs and commits on either side, its size and p-value; the chart marks it
        """)
    func report() throws {
        let commits = (0..<4).map { String(repeating: "\($0)", count: 40) }
        let files = (0..<4).map {
            (file: "r\($0)", run: Self.run(Int64(100 + $0), commit: commits[$0], chain: $0 < 2 ? 100 : 110))
        }
        let history = try #require(try RunHistory.split(files).first)
        let point = ChangePoint(trend: Self.chain, run: 2, meanBefore: 100, meanAfter: 110, pValue: 0.0004)
        let outputs = HistoryReport.outputs(
            [history], analyses: [.found([point])], directory: "/out", minimumChange: 0.05)
        let report = try #require(outputs.first { $0.path == "report.md" }?.contents)
        #expect(
            report.contains(
                "| \(Self.chain) | ns/op | 2 → 3 (1970-01-01 00:01:42) | 111111111111 → 222222222222 "
                    + "| 100 → 110 | +10% | 0.0004 |"),
            "\(report)")
        #expect(report.contains("changes of at least 5%"))
        let chart = try #require(
            outputs.first { $0.path == "charts/trend-m1-spawn-work-stealing-pattern-chain-system.svg" }?.contents)
        #expect(chart.contains(">change point<"))
        // The repeat interval is a band around the figure's line, not two series of its own.
        #expect(chart.contains("class=\"band c0\"") && chart.contains(">band: repeat interval (95%)<"))
        #expect(!chart.contains("repeat interval, low") && !chart.contains("repeat interval, high"))
        #expect(chart.contains("data-case=\"\(Self.chain), run 3 (222222222222,"))
        #expect(chart.contains(">system allocator<"))
        let missing = HistoryReport.outputs(
            [history], analyses: [.notComputed("otava not found")], directory: "/out", minimumChange: 0.05)
        #expect(missing[0].contents.contains("Not computed: otava not found. Otava's input is otava-M1.csv"))
        #expect(
            missing[0].contents.contains(
                "`OTAVA_CONFIG=/out/otava.yaml otava analyze runtimebench-M1 --since 1970-01-01T00:01:40Z "
                    + "--until 1970-01-01T00:01:44Z -M 0.05`"), "\(missing[0].contents)")
    }
}

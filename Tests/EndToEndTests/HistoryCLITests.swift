#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import Testing
import TestSupport

/// `bench history` as CI artifacts of main would feed it.
@Suite("bench history end to end")
struct HistoryCLITests {
    func bench(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildOutcome {
        try await ChildProcess.run(
            executable: BenchCLITests.bench, arguments: arguments, environment: environment, deadline: .seconds(300))
    }

    /// Where the Otava this test uses is: what bench itself would find, or nil.
    static var otava: String? {
        if let named = getenv("RUNTIMEBENCH_OTAVA").map({ String(cString: $0) }), access(named, X_OK) == 0 {
            return named
        }
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for directory in path.split(separator: ":") where access("\(directory)/otava", X_OK) == 0 {
            return "\(directory)/otava"
        }
        return access("/opt/runtimebench/venv/bin/otava", X_OK) == 0 ? "/opt/runtimebench/venv/bin/otava" : nil
    }

    /// 30 runs in 2020 (older than the year Otava reads by default), a minute apart, given out of
    /// order in nested folders: `step` 10% slower from run 20 on, `flat` not; both with a seeded
    /// run-to-run noise of up to ±1.5%.
    static func writeHistory(in directory: String) throws {
        // swift-format-ignore: GroupNumericLiterals
        // The seed is written as a date (2026-11-25), which grouping by thousands would hide.
        var generator = SeededGenerator(seed: 20261125)
        for run in (1...30).shuffled(using: &generator) {
            let noise = { 1 + Double.random(in: -0.015...0.015, using: &generator) }
            let step = 100 * (run >= 20 ? 1.10 : 1.0) * noise(), flat = 50 * noise()
            let folder = directory + "/artifacts/run-\(run)"
            mkdir(directory + "/artifacts", 0o755)
            mkdir(folder, 0o755)
            try GateCLITests.write(
                ["step": [step, step, step], "flat": [flat, flat, flat]], started: 1_600_000_000 + Int64(run) * 60,
                to: folder + "/results.json")
        }
    }

    @Test("30 runs with a 10% step at run 20: the runs in order, and Otava finds the step at run 20 and nowhere else")
    func stepAtRunTwenty() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        try Self.writeHistory(in: directory)
        let out = directory + "/history"
        let outcome = try await bench(["history", directory + "/artifacts", "--out", out])
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        let report = try #require(BenchCLITests.read(out + "/report.md"))
        let csv = try #require(BenchCLITests.read(out + "/otava-M1.csv")).split(separator: "\n")
        #expect(csv.count == 31 && csv[0] == "time,commit,flat/none/-/system,step/none/-/system", "\(csv.prefix(2))")
        let twentieth = RunResults.Instant(secondsSinceEpoch: 1_600_000_000 + 20 * 60).description
        #expect(
            csv[20].hasPrefix(twentieth.replacing(" ", with: "T")) && report.contains("| 20 | \(twentieth) |"),
            "\(csv[20])")
        guard Self.otava != nil else {
            #expect(report.contains("Not computed: otava not found"), "\(report)")
            print(
                "⊘ skipped: Otava is not installed here (tools/install-deps.sh installs it): "
                    + "only the input it would read was checked")
            return
        }
        let changes = report.split(separator: "\n").filter { $0.hasPrefix("| step/") || $0.hasPrefix("| flat/") }.filter
        { $0.contains(" → ") }
        #expect(changes.count == 1, "\(report)")
        #expect(changes.first?.hasPrefix("| step/none/-/system | ns/op | 19 → 20 (") == true, "\(changes)")
        #expect(outcome.standardOutput.contains("M1: 1 change point"), "\(outcome.standardOutput)")
        #expect(BenchCLITests.read(out + "/charts/trend-m1-step-none---system.svg")?.contains(">change point<") == true)
    }

    @Test("runs of two machines make two series; without Otava the report says why and how to run it")
    func twoMachinesWithoutOtava() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        for run in 1...4 {
            try GateCLITests.write(
                ["spin": [10, 10, 10]], cpus: run % 2 == 0 ? [0] : nil, started: 1_600_000_000 + Int64(run),
                to: directory + "/run\(run).json")
        }
        let out = directory + "/history"
        let outcome = try await bench(
            ["history"] + (1...4).map { directory + "/run\($0).json" } + ["--out", out],
            environment: ["PATH": "/usr/bin:/bin", "RUNTIMEBENCH_OTAVA": "/nonexistent/otava"])
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("4 runs; M1: 2 runs, M2: 2 runs"), "\(outcome.standardOutput)")
        let report = try #require(BenchCLITests.read(out + "/report.md"))
        #expect(
            report.contains("on 2 machines") && report.contains("## M1: ") && report.contains("## M2: "), "\(report)")
        #expect(report.contains("too short for change points"), "\(report)")
        #expect(
            BenchCLITests.read(out + "/otava-M2.csv") != nil
                && BenchCLITests.read(out + "/otava.yaml")?.contains("runtimebench-M2:") == true)
    }

    @Test(
        "bad input exits 2 with nothing written: another schema, a directory without results, two suites, no start time"
    )
    func badInput() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        try GateCLITests.write(["spin": [10]], started: 1, to: directory + "/quick.json")
        try GateCLITests.write(["spin": [10]], suite: .smoke, started: 2, to: directory + "/smoke.json")
        try GateCLITests.write(["spin": [10]], schema: 99, started: 3, to: directory + "/future.json")
        try GateCLITests.write(["spin": [10]], to: directory + "/undated.json")
        mkdir(directory + "/empty", 0o755)
        let cases: [([String], String)] = [
            (
                [directory + "/quick.json", directory + "/future.json"],
                "future.json is not a results file this bench can read"
            ),
            ([directory + "/empty"], "\(directory)/empty holds no results.json"),
            (
                [directory + "/quick.json", directory + "/smoke.json"],
                "ran the quick suite and \(directory)/smoke.json the smoke suite"
            ),
            (
                [directory + "/quick.json", directory + "/undated.json"],
                "undated.json does not record when its run started"
            ),
        ]
        for (index, (paths, message)) in cases.enumerated() {
            let out = directory + "/out\(index)"
            let outcome = try await bench(["history"] + paths + ["--out", out])
            #expect(outcome.ending == .exited(2), "\(paths): \(outcome.standardError)")
            #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
            #expect(access(out, F_OK) != 0, "nothing written for \(paths)")
        }
        let unknown = try await bench([
            "history", directory + "/quick.json", "--counter", "no-such", "--out", directory + "/out-counter",
        ])
        #expect(
            unknown.ending == .exited(64) && unknown.standardError.contains("no run measured the counter no-such"),
            "\(unknown.standardError)")
        #expect(access(directory + "/out-counter", F_OK) != 0)
    }
}

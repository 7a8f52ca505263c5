#if canImport(Glibc)
import Glibc
#endif
import Counters
import Harness
import Results
import Reports
import Testing

/// What a new user meets in the first hour: the binary says what it is, a reused --out does not
/// mix two runs, and every command follows one exit-status rule with its own usage.
@Suite("the first hour of a new user")
struct FirstHourTests {
    func bench(_ arguments: [String]) async throws -> ChildOutcome {
        try await ChildProcess.run(executable: BenchCLITests.bench, arguments: arguments, deadline: .seconds(120))
    }

    /// The package's own checkout: this file is Tests/EndToEndTests/FirstHourTests.swift in it.
    static let packageDirectory: String = {
        let file = #filePath
        return file.components(separatedBy: "/Tests/EndToEndTests/").first ?? file
    }()

    static func shell(_ script: String) async throws -> ChildOutcome {
        try await ChildProcess.run(executable: "/bin/sh", arguments: ["-c", script], deadline: .seconds(120))
    }

    @Test("bench --version names the VERSION file's version and the commit the binary was built from")
    func version() async throws {
        let outcome = try await bench(["--version"])
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        let version = try #require(BenchCLITests.read(Self.packageDirectory + "/VERSION")).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(outcome.standardOutput.hasPrefix("bench \(version), commit "), "\(outcome.standardOutput)")
        // The named commit is HEAD or, when a commit was made after the build, one of its ancestors.
        let named =
            outcome.standardOutput.split(separator: " ").drop { $0 != "commit" }.dropFirst().first.map {
                String($0.prefix(12))
            } ?? ""
        let check = try await Self.shell(
            "cd '\(Self.packageDirectory)' && git rev-parse HEAD > /dev/null 2>&1 || { echo no-git; exit 0; }; "
                + "git merge-base --is-ancestor '\(named)' HEAD && echo ancestor || echo unrelated")
        #expect(
            check.standardOutput.hasPrefix("ancestor") || check.standardOutput.hasPrefix("no-git"),
            "\(named) is not this checkout's commit: \(check.standardOutput) \(outcome.standardOutput)")
    }

    @Test("a run started inside another git repository records the binary's commit, not that repository's")
    func commitIsTheBinarysOwn() async throws {
        let elsewhere = BenchCLITests.temporaryDirectory()
        let script = """
            cd '\(elsewhere)' && git init -q . && git -c user.name=t -c user.email=t@t commit -q \
            --allow-empty -m other \
            && git rev-parse HEAD > other-commit \
            && '\(BenchCLITests.bench)' run --workload spin --filter 'rounds=0/system' --repetitions 1 --samples 1 \
            --sample-ms 1 --out run
            """
        let outcome = try await Self.shell(script)
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        let other = try #require(BenchCLITests.read(elsewhere + "/other-commit")).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let run = try ResultsJSON.decode(try #require(BenchCLITests.read(elsewhere + "/run/results.json")))
        #expect(run.environment.gitCommit != other, "recorded the current directory's commit")
        let version = try await bench(["--version"])
        #expect(
            version.standardOutput.contains(String(run.environment.gitCommit.prefix(12)))
                || run.environment.gitCommit.hasPrefix("unavailable: "),
            "\(run.environment.gitCommit) vs \(version.standardOutput)")
        #expect(run.environment.benchVersion != nil)
        let report = try #require(BenchCLITests.read(elsewhere + "/run/report.md"))
        #expect(report.contains("as bench \(run.environment.benchVersion ?? "?")"), "the report names the version")
    }

    @Test(
        """
        --out holding a run is refused (64) before anything runs; \
        --overwrite replaces bench's files and leaves others alone
        """)
    func outputsNeverMix() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let out = directory + "/run"
        let arguments = [
            "run", "--workload", "spin", "--filter", "rounds=0/system", "--repetitions", "2", "--samples", "2",
            "--sample-ms", "1",
            "--out", out,
        ]
        let first = try await bench(arguments)
        #expect(first.ending == .exited(0), "\(first.standardError)")
        #expect(
            first.standardOutput.contains("a repeat run") && first.standardOutput.contains("spin/none/rounds=0/system"),
            "a small run gets its table on the terminal: \(first.standardOutput)")
        // A chart of a case the next run does not have, and a file of the user's.
        #expect(mkdir(out + "/charts", 0o755) == 0 || errno == EEXIST)
        fclose(fopen(out + "/charts/stale.svg", "w"))
        fclose(fopen(out + "/notes.txt", "w"))
        let journalBefore = BenchCLITests.read(out + "/journal.jsonl") ?? ""

        let refused = try await bench(arguments)
        #expect(refused.ending == .exited(64), "\(refused.ending) \(refused.standardError)")
        #expect(refused.standardError.contains("\(out) already holds "), "\(refused.standardError)")
        #expect(
            refused.standardError.contains("--overwrite") && refused.standardError.contains("Usage: bench run"),
            "\(refused.standardError)")
        #expect(BenchCLITests.read(out + "/journal.jsonl") == journalBefore, "nothing ran")

        let replaced = try await bench(arguments + ["--overwrite"])
        #expect(replaced.ending == .exited(0), "\(replaced.standardError)")
        #expect(
            BenchCLITests.read(out + "/journal.jsonl")?.split(separator: "\n").count == 3,
            "the journal holds this run alone: its header and 2 repetitions")
        #expect(BenchCLITests.read(out + "/charts/stale.svg") == nil, "the previous run's chart is gone")
        #expect(BenchCLITests.read(out + "/notes.txt") != nil, "a file bench did not write is left alone")
    }

    @Test("bench report writing again in place removes the charts it no longer draws")
    func reportRemovesStaleCharts() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/run"
        let first = try await bench([
            "run", "--workload", "spin", "--filter", "rounds=0/system", "--repetitions", "1", "--samples", "1",
            "--sample-ms", "1", "--out", out,
        ])
        #expect(first.ending == .exited(0), "\(first.standardError)")
        #expect(mkdir(out + "/charts", 0o755) == 0 || errno == EEXIST)
        fclose(fopen(out + "/charts/stale.svg", "w"))
        let again = try await bench(["report", out + "/results.json"])
        #expect(again.ending == .exited(0), "\(again.standardError)")
        #expect(BenchCLITests.read(out + "/charts/stale.svg") == nil)

        // Into another directory that holds files: refused unless --overwrite, as for run.
        let other = BenchCLITests.temporaryDirectory()
        fclose(fopen(other + "/results.json", "w"))
        let refused = try await bench(["report", out + "/results.json", "--out", other])
        #expect(
            refused.ending == .exited(64) && refused.standardError.contains("--overwrite"), "\(refused.standardError)")
        #expect(BenchCLITests.read(other + "/report.md") == nil)
        let replaced = try await bench(["report", out + "/results.json", "--out", other, "--overwrite"])
        #expect(replaced.ending == .exited(0), "\(replaced.standardError)")
        #expect(
            BenchCLITests.read(other + "/report.md") != nil
                && (BenchCLITests.read(other + "/results.json")?.count ?? 0) > 0)
    }

    @Test(
        """
        bench doctor: names the binary, says what its noise verdict reads, \
        and suggests installing jemalloc only when it is missing
        """)
    func doctor() async throws {
        let outcome = try await bench(["doctor"])
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        let text = outcome.standardOutput
        #expect(text.contains("this binary:       bench "), "\(text)")
        #expect(text.contains("of the median → ") && text.contains("(quiet up to 1%, noisy above 5%)"), "\(text)")
        #expect(text.contains("so the verdict reads the spread"), "\(text)")
        let installed = JemallocLibrary.locate() != nil
        let jemallocLines = text.split(separator: "\n").filter { $0.contains("jemalloc") }
        #expect(
            jemallocLines.contains { $0.contains("tools/install-deps.sh") } == !installed,
            "installed: \(installed); \(jemallocLines)")
    }

    @Test(
        "one exit rule: a command-line mistake is 64 with that command's usage, a file problem 2 with one line",
        arguments: [
            (["run", "--backend", "nope"], 64, "unknown backend 'nope'", "Usage: bench run"),
            (["run", "--repetitions", "-3"], 64, "--repetitions must be at least 1, got -3", "Usage: bench run"),
            (["run", "--samples", "-1"], 64, "--samples must be at least 1, got -1", "Usage: bench run"),
            (["check"], 64, "--baseline FILE is required", "Usage: bench check"),
            (["ab", "--a", "/bin/true"], 64, "both --a OLD_BENCH and --b NEW_BENCH are required", "Usage: bench ab"),
            (["ab", "--a", "x", "--b", "y", "--pairs", "1"], 64, "--pairs must be at least 2", "Usage: bench ab"),
            (["ab", "--a", "x", "--b", "y", "--budget", "10x"], 64, "--budget", "Usage: bench ab"),
            (["ab", "--a", "x", "--b", "y", "--budget", "1h30m"], 2, "--a x: no such file", ""),
            (["ab", "--a", "x", "--b", "y", "--max-pairs", "20"], 64, "--max-pairs needs --budget", "Usage: bench ab"),
            (
                ["ab", "--a", "x", "--b", "y", "--budget", "5m", "--max-pairs", "4"], 64,
                "--max-pairs must be from --pairs (6) to 1000", "Usage: bench ab"
            ),
            (["list", "--cases", "--workload", "nope"], 64, "unknown workload 'nope'", "Usage: bench list"),
            (["agreement", "one.json"], 64, "give at least two results files", "Usage: bench agreement"),
            (["run", "--workload", "spin", "--out", "/proc/version/run"], 2, "bench: cannot ", ""),
            (["report", "/nonexistent-runtimebench/results.json"], 2, "bench report: cannot read", ""),
        ] as [([String], Int32, String, String)])
    func exitRule(arguments: [String], status: Int32, message: String, usage: String) async throws {
        let outcome = try await bench(arguments)
        #expect(outcome.ending == .exited(status), "\(arguments): \(outcome.ending) \(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
        if usage.isEmpty {
            #expect(!outcome.standardError.contains("Usage:"), "a file problem is one line: \(outcome.standardError)")
        } else {
            #expect(outcome.standardError.contains(usage), "\(arguments): \(outcome.standardError)")
        }
    }
}

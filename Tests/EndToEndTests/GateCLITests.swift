#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Harness
import Results
import Reports
import RuntimeKit
import Testing

/// `bench compare`, `bench check` and `bench ab` as CI would call them: the exit statuses, the
/// regressions listed first, the Markdown, and every bad input refused with status 2, a message
/// naming the file, and nothing written.
@Suite("regression gate end to end")
struct GateCLITests {
    func bench(_ arguments: [String]) async throws -> ChildOutcome {
        try await ChildProcess.run(executable: BenchCLITests.bench, arguments: arguments, deadline: .seconds(300))
    }

    /// This bench behind a wrapper that makes every spin `factor` times as long: B of a `bench ab`
    /// that must find a regression.
    static func slowerBench(in directory: String, factor: Int) throws -> String {
        let slower = directory + "/slower-bench"
        try write(
            "#!/bin/sh\nRUNTIMEBENCH_SPIN_SLOWDOWN=\(factor) exec \"\(BenchCLITests.bench)\" \"$@\"\n", to: slower)
        chmod(slower, 0o755)
        return slower
    }

    /// A results file of cases `name/none/-/system`, one process per value (its samples all equal
    /// to it), with `allocations` per operation when given, of `suite`, on this machine narrowed
    /// to `cpus` and started at `started` (seconds since 1970) when given.
    static func write(
        _ cases: [String: [Double]], allocations: Double? = nil, schema: Int = RunResults.currentSchema,
        failures: [String: [String]] = [:], notApplicable: [String: String] = [:], suite: Suite = .quick,
        cpus: [Int]? = nil, started: Int64? = nil, to path: String
    ) throws {
        let results = cases.keys.sorted().map { name -> CaseResult in
            let benchmarkCase = BenchmarkCase(
                workload: name, backend: BenchmarkCase.noBackend, parameters: [], allocator: .system)
            var result = CaseResult(benchmarkCase: benchmarkCase)
            result.records = cases[name]!.enumerated().map { repetition, value in
                CaseRecord(
                    caseID: benchmarkCase.id, repetition: repetition, batch: 1,
                    nanosecondsPerOperation: [value, value],
                    metricsPerOperation: allocations.map { ["jemalloc.arena-requests": $0] } ?? [:], unavailable: [:],
                    cpus: [0])
            }
            result.failures = failures[name] ?? []
            if let reason = notApplicable[name] {
                result.records = []
                result.notApplicable = reason
            }
            return result
        }
        var run = RunResults(
            environment: RunEnvironment.capture(gitCommit: "test"), counterAvailability: [:], suite: suite,
            repetitions: 3, sampleTimeNanoseconds: 1_000_000, cases: results)
        run.schema = schema
        if let cpus { run.environment.usableCPUs = UsableCPUs(affinity: cpus, quota: nil) }
        run.started = started.map(RunResults.Instant.init(secondsSinceEpoch:))
        try write(try ResultsJSON.encode(run), to: path)
    }

    /// The rows of `compare`/`check`/`ab` text output, each block (verdict and case, then its
    /// indented lines) joined into one string.
    static func rows(_ output: String) -> [String] {
        var rows: [String] = []
        var afterTable = false
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { afterTable = true; continue }
            guard afterTable else { continue }
            if line.hasPrefix(" "), !rows.isEmpty {
                rows[rows.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                rows.append(String(line))
            }
        }
        return rows
    }

    static func write(_ text: String, to path: String) throws {
        let file = try #require(fopen(path, "w"))
        fputs(text, file)
        fclose(file)
    }

    @Test(
        """
        bench check exits 1 on a regression and lists it first, 0 on an improvement or noise; \
        bench compare lists every row
        """)
    func exitStatuses() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let base = directory + "/base.json", slower = directory + "/slower.json", faster = directory + "/faster.json"
        try Self.write(["steady": [100, 101, 99], "moving": [100, 101, 99, 100]], to: base)
        try Self.write(["steady": [100, 99, 101], "moving": [130, 131, 129]], to: slower)
        try Self.write(["steady": [100, 99, 101], "moving": [70, 71, 69]], to: faster)

        let regressed = try await bench([
            "check", "--baseline", base, "--results", slower, "--markdown", directory + "/gate.md",
        ])
        #expect(regressed.ending == .exited(1), "\(regressed.standardError)")
        let lines = regressed.standardOutput.split(separator: "\n")
        #expect(
            lines.first?.hasPrefix("1 regression, 0 improvements, 1 no change, 0 not comparable") == true,
            "\(regressed.standardOutput)")
        #expect(
            lines.first { $0.hasPrefix("regression") }?.contains("moving/none/-/system") == true,
            "\(regressed.standardOutput)")
        #expect(!regressed.standardOutput.contains("steady/"), "check lists only changes unless --all")
        let markdown = try #require(BenchCLITests.read(directory + "/gate.md"))
        #expect(markdown.hasPrefix("### RuntimeBench regression gate: 1 regression"), "\(markdown)")
        #expect(markdown.contains("<details><summary>1 row with no change</summary>"))

        let improved = try await bench(["check", "--baseline", base, "--results", faster])
        #expect(improved.ending == .exited(0), "improvements never fail: \(improved.standardOutput)")
        #expect(improved.standardOutput.contains("improvement"))

        let compared = try await bench(["compare", base, slower])
        #expect(compared.ending == .exited(0), "compare reports; only check gates")
        let rows = compared.standardOutput.split(separator: "\n").filter {
            $0.hasPrefix("regression") || $0.hasPrefix("no change")
        }
        #expect(rows.count == 2 && rows[0].hasPrefix("regression"), "\(compared.standardOutput)")
    }

    @Test(
        """
        a case whose processes fail only in the new run fails the check as a new failure, listed first; \
        one failing in both does not
        """)
    func newFailures() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let base = directory + "/base.json", broken = directory + "/broken.json",
            brokenBefore = directory + "/broken-before.json"
        try Self.write(["steady": [100, 101, 99], "crashy": [50, 51, 49]], to: base)
        try Self.write(
            ["steady": [100, 99, 101], "crashy": [50, 49]], failures: ["crashy": ["crashed: killed by SIGSEGV (11)"]],
            to: broken)
        try Self.write(
            ["steady": [100, 101, 99], "crashy": [50, 51]],
            failures: ["crashy": ["hung: still running after the 60.0 seconds deadline; killed"]],
            to: brokenBefore)

        let checked = try await bench([
            "check", "--baseline", base, "--results", broken, "--markdown", directory + "/gate.md",
        ])
        #expect(checked.ending == .exited(1), "\(checked.standardOutput) \(checked.standardError)")
        let lines = checked.standardOutput.split(separator: "\n")
        #expect(
            lines.first?.hasPrefix("0 regressions, 1 new failure, 0 improvements, 2 no change, 0 not comparable")
                == true, "\(checked.standardOutput)")
        let row = Self.rows(checked.standardOutput).first { $0.hasPrefix("new failure") }
        #expect(
            row?.contains("crashy/none/-/system") == true && row?.contains("processes") == true,
            "\(checked.standardOutput)")
        #expect(
            row?.contains("1 of 3 processes failed in the new run, none in the base: crashed: killed by SIGSEGV (11)")
                == true,
            "\(checked.standardOutput)")
        let markdown = try #require(BenchCLITests.read(directory + "/gate.md"))
        #expect(markdown.hasPrefix("### RuntimeBench regression gate: no regression, 1 new failure"), "\(markdown)")

        let stillBroken = try await bench(["check", "--baseline", brokenBefore, "--results", broken])
        #expect(stillBroken.ending == .exited(0), "failing before too: not new. \(stillBroken.standardOutput)")
        #expect(!stillBroken.standardOutput.contains("new failure"))
    }

    @Test(
        """
        in a CI log: lines within 100 columns, cases not applicable in both runs left out, \
        a large move the runs are too small to tell called undecided
        """)
    func logReadable() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let base = directory + "/base.json", new = directory + "/new.json"
        let long = "queue-vs-lock-with-a-long-name"
        let reason =
            "join is offered by the work-stealing backend only (form=group runs everywhere), "
            + "so this case cannot run here at all"
        try Self.write(
            ["steady": [100, 101, 99], "wobbly": [100, 170], long: [60, 61, 59], "joinonly": [1], "onesided": [1]],
            notApplicable: ["joinonly": reason, "onesided": reason], to: base)
        try Self.write(
            [
                "steady": [100, 99, 101], "wobbly": [50, 110], long: [90, 91, 89], "joinonly": [1],
                "onesided": [5, 5, 5],
            ],
            notApplicable: ["joinonly": reason], to: new)
        let outcome = try await bench(["compare", base, new])
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(
            lines.allSatisfy { $0.count <= 100 }, "\(lines.map(\.count).max() ?? 0) columns: \(outcome.standardOutput)")
        let rows = Self.rows(outcome.standardOutput)
        #expect(
            !rows.contains { $0.contains("joinonly/") }, "not applicable in both: no row. \(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("1 case not applicable in both runs"), "\(outcome.standardOutput)")
        #expect(
            rows.contains { $0.hasPrefix("not comparable") && $0.contains("onesided/") },
            "not applicable in one run only is listed")
        #expect(
            rows.contains {
                $0.hasPrefix("undecided") && $0.contains("wobbly/") && $0.contains("too few processes to tell")
            }, "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("run again with more --repetitions"), "\(outcome.standardOutput)")
        #expect(
            rows.contains {
                $0.hasPrefix("regression") && $0.contains("\(long)/") && $0.contains("ns-per-op: 60 ns → 90 ns, +50.0%")
            },
            "\(outcome.standardOutput)")
    }

    @Test("a count regression fails the check even from another machine, where times are not comparable")
    func countsAcrossMachines() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let base = directory + "/base.json", new = directory + "/new.json"
        try Self.write(["alloc": [100, 101, 99]], allocations: 1, to: base)
        try Self.write(["alloc": [300, 301, 299]], allocations: 2, to: new)
        var text = try #require(BenchCLITests.read(base))
        text = text.replacing(#""onlineCPUs" : "#, with: #""onlineCPUs" : 64"#)  // 64 followed by the real count
        try Self.write(text, to: base)
        let outcome = try await bench(["check", "--baseline", base, "--results", new])
        #expect(outcome.ending == .exited(1), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("different machines (online CPUs: 64"), "\(outcome.standardOutput)")
        let regression = Self.rows(outcome.standardOutput).filter { $0.hasPrefix("regression") }
        #expect(regression.count == 1 && regression[0].contains("jemalloc.arena-requests"), "\(outcome.standardOutput)")
        #expect(
            outcome.standardOutput.contains("not comparable")
                && outcome.standardOutput.contains("--force compares anyway"))
        let forced = try await bench(["check", "--baseline", base, "--results", new, "--force"])
        #expect(forced.standardOutput.hasPrefix("2 regressions"), "\(forced.standardOutput)")
    }

    @Test(
        """
        a check that compared nothing exits 3: another machine's baseline with no count measured, \
        or a folder with no run of this machine
        """)
    func nothingComparableExits3() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let other = directory + "/history/1/results.json", new = directory + "/new.json"
        mkdir(directory + "/history", 0o755)
        mkdir(directory + "/history/1", 0o755)
        try Self.write(["spin": [100, 101, 99]], started: 2_000_000_000, to: other)
        try Self.write(["spin": [300, 301, 299]], to: new)
        var text = try #require(BenchCLITests.read(other))
        text = text.replacing(#""onlineCPUs" : "#, with: #""onlineCPUs" : 64"#)  // 64 followed by the real count
        try Self.write(text, to: other)
        let acrossMachines = try await bench(["check", "--baseline", other, "--results", new])
        #expect(acrossMachines.ending == .exited(3), "\(acrossMachines.standardOutput) \(acrossMachines.standardError)")
        #expect(
            acrossMachines.standardError.contains(
                "nothing was comparable: the baseline was measured on another machine (online CPUs: 64"),
            "\(acrossMachines.standardError)")
        let noRunOfThisMachine = try await bench(["check", "--baseline", directory + "/history", "--results", new])
        #expect(noRunOfThisMachine.ending == .exited(3), "\(noRunOfThisMachine.standardError)")
        #expect(
            noRunOfThisMachine.standardError.contains(
                "none of the 1 runs under \(directory)/history was measured on this machine"),
            "\(noRunOfThisMachine.standardError)")
        // A run of this machine joins the folder, older than the other machine's: it is the one compared.
        mkdir(directory + "/history/0", 0o755)
        try Self.write(["spin": [100, 101, 99]], started: 1_000_000_000, to: directory + "/history/0/results.json")
        let ownHistory = try await bench(["check", "--baseline", directory + "/history", "--results", new])
        #expect(ownHistory.ending == .exited(1), "\(ownHistory.standardOutput) \(ownHistory.standardError)")
        #expect(
            ownHistory.standardOutput.contains(
                "bench check: baseline \(directory)/history/0/results.json (this machine's most recent run of 2"),
            "\(ownHistory.standardOutput)")
    }

    @Test("bad baselines, results and thresholds files exit 2 naming the file and the problem, and write nothing")
    func badInputs() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let good = directory + "/good.json", other = directory + "/other.json"
        try Self.write(["a": [1, 2, 3]], to: good)
        try Self.write(["b": [1, 2, 3]], to: other)
        let goodText = try #require(BenchCLITests.read(good))
        let files: [(String, String)] = [
            ("truncated.json", String(goodText.prefix(goodText.count / 2))),
            ("malformed.json", "{\"schema\": 1, \"cases\": 7}"),
            ("thresholds-v2.json", "{\"schema\": 2}"),
            ("thresholds-typo.json", "{\"schema\": 1, \"defaults\": {\"time\": {\"minimumEfect\": 0.1}}}"),
            ("thresholds-truncated.json", "{\"schema\": 1, \"defaults\": {"),
        ]
        for (name, text) in files { try Self.write(text, to: directory + "/" + name) }
        try Self.write(["a": [1, 2, 3]], schema: 99, to: directory + "/schema99.json")
        let markdown = directory + "/gate.md"
        let cases: [([String], String)] = [
            (
                ["check", "--baseline", directory + "/nowhere.json"],
                "baseline cannot read \(directory)/nowhere.json: No such file or directory"
            ),
            (
                ["check", "--baseline", directory + "/truncated.json"],
                "baseline \(directory)/truncated.json is not a results file this bench can read: not valid JSON"
            ),
            (
                ["check", "--baseline", directory + "/malformed.json"],
                "baseline \(directory)/malformed.json is not a results file this bench can read"
            ),
            (["check", "--baseline", directory + "/schema99.json"], "results schema 99; this bench reads schema 1"),
            (
                ["check", "--baseline", good, "--results", good, "--thresholds", directory + "/thresholds-v2.json"],
                "thresholds \(directory)/thresholds-v2.json: schema 2; this bench reads thresholds schema 1"
            ),
            (
                ["check", "--baseline", good, "--results", good, "--thresholds", directory + "/thresholds-typo.json"],
                "thresholds \(directory)/thresholds-typo.json: defaults.time.minimumEfect: unknown field"
            ),
            (
                [
                    "check", "--baseline", good, "--results", good, "--thresholds",
                    directory + "/thresholds-truncated.json",
                ],
                "thresholds \(directory)/thresholds-truncated.json: not valid JSON"
            ),
            (["check", "--baseline", good, "--results", other], "the two runs have no case in common"),
            (
                ["compare", good, directory + "/truncated.json"],
                "new \(directory)/truncated.json is not a results file"
            ),
            (["compare", good, other], "\(good) and \(other): the two runs have no case in common"),
        ]
        for (arguments, message) in cases {
            let outcome = try await bench(arguments + ["--markdown", markdown])
            #expect(outcome.ending == .exited(2), "\(arguments): \(outcome.ending) \(outcome.standardError)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty, "\(arguments): printed \(outcome.standardOutput)")
        }
        #expect(BenchCLITests.read(markdown) == nil, "nothing is written after a bad input")
    }

    @Test(
        """
        bench check without --results runs the baseline's cases again, with its settings (sample time, samples), \
        and writes the new run
        """)
    func checkRunsTheBaselineCases() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let baseline = directory + "/baseline", again = directory + "/again"
        let first = try await bench([
            "run", "--workload", "spin", "--filter", "rounds=0/system", "--repetitions", "2", "--samples", "3",
            "--sample-ms", "2", "--out", baseline,
        ])
        #expect(first.ending == .exited(0), "\(first.standardError)")
        // Times on a busy machine could move either way: compare nothing timed, so the exit status is certain.
        let thresholds = directory + "/thresholds.json"
        try Self.write(#"{"schema": 1, "defaults": {"time": {"compare": false}}}"#, to: thresholds)
        let outcome = try await bench([
            "check", "--baseline", baseline + "/results.json", "--thresholds", thresholds, "--out", again,
        ])
        #expect(outcome.ending == .exited(0), "\(outcome.standardOutput) \(outcome.standardError)")
        #expect(
            outcome.standardOutput.contains("bench check: 1 cases × 2 repetitions → \(again)"),
            "\(outcome.standardOutput)")
        let rerun = try ResultsJSON.decode(try #require(BenchCLITests.read(again + "/results.json")))
        #expect(rerun.cases.map(\.benchmarkCase.id) == ["spin/none/rounds=0/system"])
        #expect(rerun.sampleTimeNanoseconds == 2_000_000, "the baseline's sample time")
        #expect(
            rerun.cases.first?.records.first?.nanosecondsPerOperation.count == 3, "the baseline's samples per process")
    }

    @Test("bench ab refuses a missing, non-executable or non-bench binary with exit 2 before running anything")
    func abRefusesBadBinaries() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let plain = directory + "/plain"
        try Self.write("not a program", to: plain)
        let cases: [([String], String)] = [
            (["--a", directory + "/nowhere", "--b", BenchCLITests.bench], "--a \(directory)/nowhere: no such file"),
            (["--a", BenchCLITests.bench, "--b", plain], "--b \(plain): not executable"),
            (["--a", "/bin/echo", "--b", BenchCLITests.bench], "--a /bin/echo: not a bench executable"),
        ]
        for (arguments, message) in cases {
            let out = directory + "/ab"
            let outcome = try await bench(["ab"] + arguments + ["--workload", "spin", "--out", out])
            #expect(outcome.ending == .exited(2), "\(arguments): \(outcome.ending) \(outcome.standardError)")
            #expect(outcome.standardError.contains("bench ab: " + message), "\(arguments): \(outcome.standardError)")
            #expect(BenchCLITests.read(out + "/journal.jsonl") == nil, "nothing ran")
        }
    }

    /// The end-to-end check of `bench ab`, not of how small a change it can find (that is
    /// tools/gate-calibration.sh's): B spins 10 times as long, as in the confirmation and budget
    /// tests. A 3-fold spin over 8 pairs was once left undecided in CI (+151.8%, interval +36.8% to
    /// +364%, adjusted p 0.0115 against α 0.01) while the other suites loaded both cores and some
    /// pairs landed half in a stall; the 10-fold one's log-ratio, 2.3, stays clear of such spread.
    @Test("bench ab finds a spin made 10 times as long, writes both builds' results and the comparison, and exits 1")
    func abDetectsASlowdown() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let slower = try Self.slowerBench(in: directory, factor: 10)
        let out = directory + "/ab"
        let outcome = try await bench([
            "ab", "--a", BenchCLITests.bench, "--b", slower, "--workload", "spin", "--filter", "rounds=1000/system",
            "--pairs", "8", "--samples", "5", "--sample-ms", "2", "--out", out,
        ])
        #expect(outcome.ending == .exited(1), "\(outcome.standardOutput) \(outcome.standardError)")
        let regression = Self.rows(outcome.standardOutput).first { $0.hasPrefix("regression") }
        #expect(
            regression?.contains("spin/none/rounds=1000/system") == true && regression?.contains("ns-per-op") == true,
            "\(outcome.standardOutput)")
        for file in ["a.json", "b.json", "comparison.md", "journal.jsonl"] {
            #expect(BenchCLITests.read(out + "/" + file) != nil, "\(file) missing")
        }
        let journal = try #require(BenchCLITests.read(out + "/journal.jsonl")).split(separator: "\n")
        let order = journal.compactMap { line in
            ["\"build\":\"A\"", "\"build\":\"B\""].first { line.contains($0) }?.dropFirst(9).prefix(1)
        }
        #expect(order.joined() == "ABBAABBAABBAABBA", "pairs alternate their order: \(order)")
        let b = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/b.json")))
        #expect(
            b.cases.first?.records.first?.workloadMetrics?["injected-slowdown"]?.value == 10,
            "B's record says it was slowed")
        // Each build's identity, read from its own --version (here both are this bench).
        let version = try await bench(["--version"])
        #expect(b.environment.benchVersion != nil && b.environment.benchVersion != "unknown", "\(b.environment)")
        #expect(
            version.standardOutput.contains("commit \(b.environment.gitCommit)")
                || b.environment.gitCommit.hasPrefix("unavailable: "),
            "\(b.environment.gitCommit) vs \(version.standardOutput)")
        #expect(outcome.standardOutput.contains("bench ab: B = \(slower) (commit "), "\(outcome.standardOutput)")
        let again = try await bench(["compare", "--paired", out + "/a.json", out + "/b.json", "--changes-only"])
        #expect(again.standardOutput.contains("regression"), "the files redo the comparison: \(again.standardOutput)")
    }

    /// Both stages must flag the slowdown, whatever else the machine runs: a 10-fold spin over 10
    /// pairs, because a 3-fold one over 6 was once left undecided (adjusted p 0.014) while the
    /// other test suites ran beside it, and the confirmation stage never started.
    @Test(
        """
        bench ab --confirm: a slowdown of every process fails again with fresh pairs and fails the gate; \
        one of the first pairs only is not confirmed and passes
        """)
    func confirmationStage() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let options = [
            "--workload", "spin", "--filter", "rounds=1000/system", "--pairs", "10", "--samples", "5", "--sample-ms",
            "2", "--confirm", "8",
        ]
        let slower = try Self.slowerBench(in: directory, factor: 10)
        let real = try await bench(
            ["ab", "--a", BenchCLITests.bench, "--b", slower] + options + ["--out", directory + "/real"])
        #expect(real.ending == .exited(1), "\(real.standardOutput) \(real.standardError)")
        #expect(
            real.standardOutput.contains(
                "bench ab: confirmation: 1 of 1 failing row(s) failed again: spin/none/rounds=1000/system ns-per-op"),
            "\(real.standardOutput)")
        #expect(BenchCLITests.read(directory + "/real/confirmation.md") != nil)
        // B slowed for its first 10 processes only (the first stage), as a machine's slow minute would.
        let transient = directory + "/transient-bench", count = directory + "/count"
        try Self.write(
            """
            #!/bin/sh
            if [ "$1" = case ]; then
                n=$(( $(cat "\(count)" 2> /dev/null || echo 0) + 1 )); echo $n > "\(count)"
                [ $n -le 10 ] && export RUNTIMEBENCH_SPIN_SLOWDOWN=10
            fi
            exec "\(BenchCLITests.bench)" "$@"

            """, to: transient)
        chmod(transient, 0o755)
        let markdown = directory + "/gate.md"
        let passing = try await bench(
            ["ab", "--a", BenchCLITests.bench, "--b", transient] + options + [
                "--out", directory + "/transient", "--markdown", markdown,
            ])
        #expect(passing.ending == .exited(0), "\(passing.standardOutput) \(passing.standardError)")
        #expect(
            passing.standardOutput.contains(
                "bench ab: confirmation: 0 of 1 failing row(s) failed again; not confirmed, so nothing fails the gate"),
            "\(passing.standardOutput)")
        #expect(BenchCLITests.read(markdown)?.contains("### Confirmation") == true)
    }

    @Test(
        """
        bench ab --budget decides pairs as they come: the 10-fold spin fails, the note gives the looks, \
        and no case runs past the most pairs
        """)
    func abWithBudget() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        // 10-fold, as the confirmation test's: beside a parallel swift test the 3-fold spin read
        // +343% with an interval of +82% to +980% after 9 pairs, adjusted p 0.014 against α 0.01.
        // What this tests is the looks, not how small a change 9 pairs can find.
        let slower = try Self.slowerBench(in: directory, factor: 10)
        let out = directory + "/ab"
        let outcome = try await bench([
            "ab", "--a", BenchCLITests.bench, "--b", slower, "--workload", "spin", "--filter", "rounds=(0|1000)/system",
            "--budget", "2m", "--pairs", "4", "--max-pairs", "9", "--samples", "5", "--sample-ms", "2", "--out", out,
        ])
        #expect(outcome.ending == .exited(1), "\(outcome.standardOutput) \(outcome.standardError)")
        #expect(
            Self.rows(outcome.standardOutput).first { $0.hasPrefix("regression") }?.contains(
                "spin/none/rounds=1000/system") == true,
            "\(outcome.standardOutput)")
        #expect(
            outcome.standardOutput.contains("Pairs were decided as they came: looks at 4, 6, 9 pairs;"),
            "\(outcome.standardOutput)")
        #expect(outcome.standardError.contains("bench ab: "), "each look is reported: \(outcome.standardError)")
        let b = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/b.json")))
        for result in b.cases {
            #expect((4...9).contains(result.records.count), "\(result.benchmarkCase.id): \(result.records.count) pairs")
        }
    }
}

import ArgumentParser
import Gate
import Harness
import Results
import Reports
import Workloads
#if canImport(Glibc)
import Glibc
#endif

/// `bench ab --a OLD --b NEW`: two builds' cases interleaved on one machine, compared pair by
/// pair. The gate for noisy machines: exit 0 / 1 / 2 as `bench check`.
struct ABCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Run two bench builds side by side (A B B A ...) and gate on the paired comparison.",
        discussion: """
            Every selected case runs --pairs times from each build, each run a child process of \
            that build's executable (`bench case`), the two of a pair back to back, in the order \
            A B, B A, A B ... A slow minute of the machine then lands on both halves of a pair, \
            and the comparison works on each pair's log-ratio (Yuen's paired t test on trimmed \
            means, Holm-corrected over every row), which cancels the drift that makes two separate runs disagree. \
            tools/ci-regression.sh is the CI recipe: build the base revision and the head, run \
            this, gate on its exit status:
              0  nothing regressed        1  a regression, or a case failing only in B
              2  a binary or file is unusable

            Both builds must speak the same child protocol (`bench case`); a case one build does \
            not know is recorded as failed there (in B, a new failure: select cases both builds have). \
            A case whose processes fail in B (crash, hang, early \
            exit) while all of A's finish is a "new failure" and fails the gate like a regression; \
            one failing in A, or in both, is reported "not comparable". Calibrations \
            (the spin's ns per round) are measured once, by this process, for both builds.

            How many pairs: every pair is two processes, so time grows with --pairs; the interval \
            narrows with its square root. On the 2-core development VM the default 6 pairs see \
            changes of a few tens of percent; `--pairs 40 --samples 5 --cpus 1` found 74 of 75 \
            10% slowdowns of single-threaded cases, with no false alarm (Sources/Gate/README.md). \
            Pin only single-threaded cases: a pool pinned to one CPU measures something else.

            --budget TIME decides the pairs as they come: every case runs --pairs pairs, then, \
            look by look (6, 10, 16, 24, 36, 40 pairs with the defaults), a case stops once its \
            interval lies within the regression limits or its change is overwhelming, and the \
            others get more pairs while the time lasts, the likeliest changes first. Each row's \
            p-value counts every look (SequentialRule: 10% of α over the interim looks, 90% at a \
            case's last), so the false-alarm rate stays at α. The first look always runs whole.

            Writes DIR/a.json and DIR/b.json (results files: `bench compare --paired` redoes the \
            comparison), DIR/comparison.md and DIR/journal.jsonl.

            Examples:
              bench ab --a /tmp/base/bench --b .build/release/bench --suite quick --workload spin
              bench ab --a old/bench --b new/bench --filter 'semaphore/' --pairs 10 --markdown gate.md
              bench ab --a old/bench --b new/bench --suite quick --backend fifo-dispatch --budget 10m
            """
    )

    @Option(help: "The old build: a path to its bench executable.")
    var a: String?

    @Option(help: "The new build: a path to its bench executable.")
    var b: String?

    @OptionGroup var selection: CaseSelection

    @Option(
        parsing: .unconditional,
        help:
            """
            Pairs of processes per case (an even number balances the order: A B, B A); with \
            --budget, the pairs of the first look.
            """)
    var pairs = 6

    @Option(
        help: ArgumentHelp(
            "Decide pairs as they come, within this much time (90s, 10m, 1h): after each look, "
                + "cases that cannot change their verdict stop, and the rest get more pairs.", valueName: "time"))
    var budget: TimeBudget?

    @Option(name: .customLong("max-pairs"), parsing: .unconditional, help: "With --budget, the most pairs a case gets.")
    var maxPairs = 40

    @OptionGroup var measurement: MeasurementOptions

    @Option(help: "A thresholds file (JSON, schema 1; Sources/Gate/README.md) overriding the defaults.")
    var thresholds: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "A confirmation stage: the cases of rows that fail are measured again with this many fresh pairs, "
                + "and a row fails the gate only if it fails again (0: none). A case whose processes fall into modes "
                + "can be flagged by one unlucky set of pairs; a real regression is flagged twice. "
                + "The confirmation runs from fresh copies of both builds.", valueName: "pairs"))
    var confirm = 0

    @OptionGroup var output: RunOutput

    @Flag(help: "List every row, not only regressions, improvements and what could not be compared.")
    var all = false

    @Option(help: "Also write the comparison as Markdown (for a pull-request comment) to this file.")
    var markdown: String?

    func validate() throws {
        guard a != nil, b != nil else {
            throw ValidationError("both --a OLD_BENCH and --b NEW_BENCH are required: paths to two bench executables")
        }
        guard pairs >= 2 else {
            throw ValidationError("--pairs must be at least 2 (a test needs 2 pairs), got \(pairs)")
        }
        guard confirm == 0 || confirm >= 2 else {
            throw ValidationError("--confirm must be 0 (no confirmation) or at least 2 pairs, got \(confirm)")
        }
        if budget != nil {
            guard maxPairs >= pairs, maxPairs <= 1_000 else {
                throw ValidationError("--max-pairs must be from --pairs (\(pairs)) to 1000, got \(maxPairs)")
            }
        } else if maxPairs != 40 {
            throw ValidationError("--max-pairs needs --budget: without it every case runs --pairs pairs")
        }
    }

    func run() throws {
        let files = CommandFiles(command: "ab")
        let a = self.a!, b = self.b!  // validate() requires both
        let limits = try files.thresholds(thresholds)
        try files.checkWritable(markdown)
        let identityA = try Self.requireBench(a, flag: "--a", files: files)
        let identityB = try Self.requireBench(b, flag: "--b", files: files)
        try measurement.requireCounting(besides: [a, b], label: "bench ab")
        let staged: StagedBuilds
        do { staged = try StagedBuilds.stage(a: a, b: b) } catch {
            throw files.failure("cannot copy the builds to run them: \(error)")
        }
        defer { staged.remove() }
        let plan = try selection.plan(repetitions: pairs)  // validate() has checked every name
        let directory = output.directory(prefix: "ab-")
        let journal = try output.openJournal(in: directory, label: "bench ab")
        let calibration = WorkloadCalibration.measure()
        // The gate's error rates were measured with 20 samples per process (Sources/Gate/README.md).
        var measurement = measurement
        if measurement.samples == nil { measurement.samples = Sampler.defaultSamples }
        let engine = measurement.measuredRun(plan, suite: selection.chosenSuite, calibration: calibration)
        print(
            "bench ab: \(plan.cases.count) cases × \(budget == nil ? "\(pairs)" : "\(pairs) to \(maxPairs)") pairs "
                + "(A B, B A, ...) → \(directory)")
        func named(_ identity: BuildStamp.Identity) -> String {
            identity.commit.hasPrefix("unavailable: ")
                ? "commit unknown"
                : "commit \(identity.commit.prefix(12))"
                    + (identity.uncommittedChanges == true ? " with uncommitted changes" : "")
        }
        print("bench ab: A = \(a) (\(named(identityA)))\nbench ab: B = \(b) (\(named(identityB)))")
        print(
            "bench ab: both run from copies at paths of one length (\(staged.directory)/a, /b): "
                + "a path's length moves every child's stack")
        func build(_ path: String, _ identity: BuildStamp.Identity) -> MeasuredRun.BuildUnderTest {
            .init(
                executable: CommandFiles.absolute(path),
                environment: RunEnvironment.capture(
                    gitCommit: identity.commit, benchVersion: identity.version,
                    uncommittedChanges: identity.uncommittedChanges))
        }
        let progress = ProgressReporter()
        let (buildA, buildB) = (build(staged.a, identityA), build(staged.b, identityB))
        let pairBudget = budget.map {
            PairBudget(
                budget: $0, rule: SequentialRule(firstLook: pairs, maximumPairs: maxPairs), thresholds: limits,
                caseIDs: plan.cases.map(\.id))
        }
        if let pairBudget {
            print(
                "bench ab: pairs decided as they come within "
                    + "\(TimeBudget.spelled(pairBudget.budget.seconds)): looks at "
                    + pairBudget.record.rule.looks.map(String.init).joined(separator: ", ") + " pairs")
        }
        fflush(nil)  // the lines above before the looks and progress on standard error
        let (runA, runB) = try runBlocking {
            try await engine.runPaired(
                a: buildA, b: buildB, journal: journal, progress: progress.report,
                next: pairBudget == nil
                    ? nil
                    : { look in
                        let seen = PairBudget.Look(
                            a: look.a, b: look.b, pairs: look.pairs, secondsPerPair: look.secondsPerPair,
                            elapsedSeconds: look.elapsed.inSeconds)
                        return pairBudget?.next(after: seen) { writeToStandardError($0 + "\n") }
                            .map { Runner.Round(cases: $0.cases, repetitions: $0.pairs) }
                    })
        }
        if runA.interrupted != nil, let signal = Interruption.signal {
            do {
                try writeAtomically(try ResultsJSON.encode(runA), to: directory + "/a.json")
                try writeAtomically(try ResultsJSON.encode(runB), to: directory + "/b.json")
            } catch {
                throw files.failure("\(error)")
            }
            writeToStandardError(
                "bench ab: interrupted (\(Interruption.describe(signal).name)); no verdict. "
                    + "What finished is in \(directory)/a.json and b.json (`bench compare --paired` reads them)\n")
            throw ExitStatus.interrupted(by: signal)
        }
        let comparison: Comparison
        do {
            comparison = try Comparison(
                base: runA, new: runB, thresholds: limits, pairing: .paired, sequential: pairBudget?.record)
            try writeAtomically(try ResultsJSON.encode(runA), to: directory + "/a.json")
            try writeAtomically(try ResultsJSON.encode(runB), to: directory + "/b.json")
            try writeAtomically(
                ComparisonReport.markdown(comparison, title: "bench ab"), to: directory + "/comparison.md")
        } catch {
            throw files.failure("\(error)")
        }
        print("bench ab: wrote \(directory)/: a.json, b.json, comparison.md, journal.jsonl")
        guard confirm > 0, !comparison.failing.isEmpty else {
            return try files.finish(
                comparison, detail: all ? .all : .changes, markdown: markdown, failOnRegression: true)
        }
        try files.finish(comparison, detail: all ? .all : .changes, markdown: markdown, failOnRegression: false)
        // Fresh copies for the confirmation: a copy keeps its page-cache pages, so each side's code
        // stays at the same physical addresses in every child of the first stage. Two builds of
        // one commit, identical in every loaded section, read +5.4% then, with the same copies,
        // +5.0% on one case; seven fresh stagings of the same files read −1.0 … +1.1%.
        let restaged: StagedBuilds
        do { restaged = try StagedBuilds.stage(a: a, b: b) } catch {
            throw files.failure("cannot copy the builds to run them: \(error)")
        }
        defer { restaged.remove() }
        try confirmFailures(
            of: comparison, plan: plan,
            engine: { measurement.measuredRun($0, suite: selection.chosenSuite, calibration: calibration) },
            builds: (build(restaged.a, identityA), build(restaged.b, identityB)), journal: journal, limits: limits,
            directory: directory, files: files, progress: progress)
    }

    /// The confirmation stage: the failing rows' cases again, `confirm` fresh pairs each; exit 1
    /// only for a row that fails again (the same case and metric).
    private func confirmFailures(
        of comparison: Comparison, plan: RunPlan, engine: (RunPlan) -> MeasuredRun,
        builds: (MeasuredRun.BuildUnderTest, MeasuredRun.BuildUnderTest), journal: ResultsJournal,
        limits: Thresholds, directory: String, files: CommandFiles, progress: ProgressReporter
    ) throws {
        let flagged = comparison.failing
        let caseIDs = Set(flagged.map(\.caseID))
        let again = try RunPlan(cases: plan.cases.filter { caseIDs.contains($0.id) }, repetitions: confirm)
        print(
            "\nbench ab: confirmation: \(flagged.count) failing row(s) of \(again.cases.count) case(s), "
                + "each measured again with \(confirm) fresh pairs from fresh copies of both builds")
        fflush(nil)
        let measuring = engine(again)
        let (runA, runB) = try runBlocking {
            try await measuring.runPaired(a: builds.0, b: builds.1, journal: journal, progress: progress.report)
        }
        if runA.interrupted != nil, let signal = Interruption.signal {
            writeToStandardError(
                "bench ab: interrupted (\(Interruption.describe(signal).name)) during the confirmation; no verdict\n")
            throw ExitStatus.interrupted(by: signal)
        }
        let second: Comparison
        do {
            second = try Comparison(base: runA, new: runB, thresholds: limits, pairing: .paired)
            try writeAtomically(try ResultsJSON.encode(runA), to: directory + "/confirmation-a.json")
            try writeAtomically(try ResultsJSON.encode(runB), to: directory + "/confirmation-b.json")
            try writeAtomically(
                ComparisonReport.markdown(second, title: "bench ab: confirmation"), to: directory + "/confirmation.md")
        } catch {
            throw files.failure("\(error)")
        }
        let failingAgain = Set(second.failing.map { "\($0.caseID) \($0.metric)" })
        let confirmed = flagged.filter { failingAgain.contains("\($0.caseID) \($0.metric)") }
        print(ComparisonReport.text(second, detail: .changes), terminator: "")
        print(
            "bench ab: confirmation: \(confirmed.count) of \(flagged.count) failing row(s) failed again"
                + (confirmed.isEmpty
                    ? "; not confirmed, so nothing fails the gate"
                    : ": " + confirmed.map { "\($0.caseID) \($0.metric)" }.joined(separator: ", ")))
        print("bench ab: wrote \(directory)/: confirmation-a.json, confirmation-b.json, confirmation.md")
        if let markdown {
            let note =
                "\n\n### Confirmation\n\n\(confirmed.count) of \(flagged.count) failing row(s) "
                + "failed again with \(confirm) fresh pairs"
                + (confirmed.isEmpty ? ": none is a regression of this change." : ".") + "\n\n"
                + ComparisonReport.markdown(second, title: "bench ab: confirmation")
            let first = (try? readWholeFile(markdown)) ?? ""
            do { try writeAtomically(first + note, to: markdown) } catch { throw files.failure("\(error)") }
        }
        if !confirmed.isEmpty { throw ExitStatus.foundSomethingWrong }
    }

    /// Exit 2 unless `path` is an executable that answers `list --ids-only` as a bench does; its
    /// identity from `--version`, recorded with its results.
    static func requireBench(_ path: String, flag: String, files: CommandFiles) throws -> BuildStamp.Identity {
        guard access(path, F_OK) == 0 else { throw files.failure("\(flag) \(path): no such file") }
        guard access(path, X_OK) == 0 else { throw files.failure("\(flag) \(path): not executable") }
        let probe: ChildOutcome
        do {
            probe = try runBlocking {
                try await ChildProcess.run(executable: path, arguments: ["list", "--ids-only"], deadline: .seconds(30))
            }
        } catch {
            throw files.failure("\(flag) \(path): cannot run it: \(error)")
        }
        let ids = probe.standardOutput.split(whereSeparator: \.isNewline)
        guard probe.ending == .exited(0), !ids.isEmpty, ids.allSatisfy({ !$0.contains(" ") }) else {
            throw files.failure(
                "\(flag) \(path): not a bench executable (`\(path) list --ids-only` did not list "
                    + "backends: \(probe.ending))")
        }
        let version = try? runBlocking {
            try await ChildProcess.run(executable: path, arguments: ["--version"], deadline: .seconds(30))
        }
        return version.flatMap { BuildStamp.Identity(versionLine: $0.standardOutput) } ?? .unknown(path)
    }

}

extension TimeBudget: ExpressibleByArgument {
    public init?(argument: String) { self.init(spelled: argument) }
}

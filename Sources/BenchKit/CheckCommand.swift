import ArgumentParser
import Backends
import Gate
import Harness
import Reports
import Results
import Workloads

/// `bench check --baseline FILE-OR-FOLDER`: the CI gate. Exit 0 nothing regressed, 1 something
/// did, 2 an input error, 3 nothing was comparable.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Gate on regressions against a baseline: exit 0 none, 1 regression, 2 error, 3 nothing comparable.",
        discussion: """
            Runs the baseline's cases again on this machine (or reads --results), compares with \
            `bench compare`'s rule, prints the regressions first, and exits:
              0  nothing regressed (improvements never fail)
              1  at least one case and metric regressed, or a case's processes failed
                 (crashed, hung, exited early) in the new run while every one of the
                 baseline's finished
              2  a baseline, thresholds or results file is missing, unreadable,
                 malformed or of another schema, or the runs share no case; nothing
                 is run or written
              3  nothing was comparable: the baseline was measured on another machine
                 and no count was measured, or a baseline folder holds no earlier run
                 of this machine (a gate that compared nothing does not pass)
            (64 is a mistake on the command line itself, e.g. an unknown option.)

            The baseline is a results.json from `bench run` (commit one for CI). When it was \
            measured on another machine (CPU, CPU count, VM, kernel), its times and events are \
            "not comparable" and only counts (allocations, instructions) can fail the check; \
            --force compares times anyway. On a shared or noisy machine prefer `bench ab`, which \
            runs the old and the new build side by side.

            A folder as --baseline (a history of earlier runs, e.g. one results.json per run of \
            main) compares with the most recent run in it, at any depth, whose machine \
            fingerprint (CPU, CPU counts, VM, kernel, Swift) is this run's: each machine is \
            judged against its own history, never against another CPU's.

            The statistics need at least 2 processes per case on each side; the re-run uses the \
            baseline's repetitions, samples and sample time unless --repetitions / --samples / \
            --sample-ms say otherwise.

            Examples:
              bench check --baseline Benchmarks/Baselines/smoke.json \
            --thresholds Benchmarks/Baselines/smoke-thresholds.json
              bench check --baseline main.json --results bench-results/20261123-101500/results.json --markdown gate.md
              bench check --baseline history/ --results results.json
            """
    )

    @Option(
        help:
            """
            The baseline: a results.json written by `bench run`, or a folder of them \
            (the most recent run of this machine is used).
            """)
    var baseline: String?

    @Option(help: "A thresholds file (JSON, schema 1; Sources/Gate/README.md) overriding the defaults.")
    var thresholds: String?

    @Option(help: "Compare this results.json instead of running the baseline's cases now.")
    var results: String?

    @Option(parsing: .unconditional, help: "Child processes per case when running (default: the baseline's).")
    var repetitions: Int?

    @OptionGroup var measurement: MeasurementOptions

    @OptionGroup var output: RunOutput

    @Flag(help: "Compare times and events even though the baseline was measured on another machine.")
    var force = false

    @Flag(help: "List every row, not only regressions, improvements and what could not be compared.")
    var all = false

    @Option(help: "Also write the comparison as Markdown (for a pull-request comment) to this file.")
    var markdown: String?

    func validate() throws {
        guard baseline != nil else {
            throw ValidationError("--baseline FILE is required: a results.json to compare with")
        }
        if let repetitions, repetitions < 1 {
            throw ValidationError("--repetitions must be at least 1, got \(repetitions)")
        }
    }

    func run() throws {
        let files = CommandFiles(command: "check")
        let baseline = self.baseline!  // validate() requires it
        let limits = try files.thresholds(thresholds)
        try files.checkWritable(markdown)
        let given = try results.map { try files.results($0, role: "results") }
        let base: RunResults
        if HistoryCommand.isDirectory(baseline) {
            let machine = MachineFingerprint(given?.environment ?? RunEnvironment.capture(gitCommit: ""))
            base = try Self.latestRun(of: machine, under: baseline, files: files)
        } else {
            base = try files.results(baseline, role: "baseline")
        }
        let new = try given ?? runBaselineCases(base, files: files)
        let comparison: Comparison
        do {
            comparison = try Comparison(base: base, new: new, thresholds: limits, force: force)
        } catch {
            throw files.failure("\(baseline) and the new run: \(error.description)")
        }
        try files.finish(comparison, detail: all ? .all : .changes, markdown: markdown, failOnRegression: true)
        if !comparison.rows.isEmpty, comparison.count(.notComparable) == comparison.rows.count {
            let why =
                comparison.machineDifference.map {
                    "the baseline was measured on another machine (\($0)) and no count was measured"
                }
                ?? "no row could be compared"
            throw ExitStatus.nothingComparable(
                "bench check",
                "nothing was comparable: \(why); compare with this machine's own earlier run (a folder as "
                    + "--baseline picks it), run `bench ab`, or --force")
        }
    }

    /// The most recent results file under `folder` measured on `machine` (by its start time, then
    /// its path); exit 3 when none was.
    static func latestRun(of machine: MachineFingerprint, under folder: String, files: CommandFiles) throws
        -> RunResults
    {
        let paths = HistoryCommand.resultsFiles(under: folder)
        guard !paths.isEmpty else { throw files.failure("baseline folder \(folder) holds no \(ResultsJSON.fileName)") }
        var latest: (run: RunResults, path: String)?
        for path in paths {
            let run = try files.results(path, role: "baseline")
            guard MachineFingerprint(run.environment) == machine else { continue }
            let never = RunResults.Instant(secondsSinceEpoch: 0)
            if let current = latest, (current.run.started ?? never, current.path) >= (run.started ?? never, path) {
                continue
            }
            latest = (run, path)
        }
        guard let latest else {
            throw ExitStatus.nothingComparable(
                "bench check",
                "none of the \(paths.count) runs under \(folder) was measured on this machine; "
                    + "the first run of a machine has nothing to be compared with")
        }
        print("bench check: baseline \(latest.path) (this machine's most recent run of \(paths.count) under \(folder))")
        return latest.run
    }

    /// Runs the baseline's cases that this bench knows, with the baseline's settings.
    private func runBaselineCases(_ base: RunResults, files: CommandFiles) throws -> RunResults {
        let known = base.cases.map(\.benchmarkCase).filter { benchmarkCase in
            Workloads.named(benchmarkCase.workload) != nil
                && (benchmarkCase.backend == BenchmarkCase.noBackend || Backends.ids.contains(benchmarkCase.backend))
        }
        guard !known.isEmpty else {
            throw files.failure(
                "\(baseline ?? ""): none of its \(base.cases.count) cases is known to this bench "
                    + "(`bench list` shows what is)")
        }
        let suite = base.suite
        var measurement = measurement
        if measurement.sampleMilliseconds == nil {
            measurement.sampleMilliseconds = max(1, Int(base.sampleTimeNanoseconds / 1_000_000))
        }
        if measurement.samples == nil,
            let samples = base.cases.lazy.compactMap({ $0.records.first?.nanosecondsPerOperation.count }).first
        {
            measurement.samples = samples
        }
        let plan = try RunPlan(cases: known, repetitions: repetitions ?? max(2, base.repetitions))
        let directory = output.directory(prefix: "check-")
        let measured = measurement, output = output
        return try runBlocking {
            try await RunAndWrite.run(
                plan, suite: suite, measurement: measured, output: output, directory: directory,
                label: "bench check"
            ).run
        }
    }
}

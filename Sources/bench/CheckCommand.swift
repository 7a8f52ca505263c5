import ArgumentParser
import Backends
import Gate
import Harness
import Results
import Workloads

/// `bench check --baseline FILE`: the CI gate. Exit 0 nothing regressed, 1 something did,
/// 2 an input error.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Gate on regressions against a baseline: exit 0 none, 1 regression, 2 error.",
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
            (64 is a mistake on the command line itself, e.g. an unknown option.)

            The baseline is a results.json from `bench run` (commit one for CI). When it was \
            measured on another machine (CPU, CPU count, VM, kernel), its times and events are \
            "not comparable" and only counts (allocations, instructions) can fail the check; \
            --force compares times anyway. On a shared or noisy machine prefer `bench ab`, which \
            runs the old and the new build side by side.

            The statistics need at least 2 processes per case on each side; the re-run uses the \
            baseline's repetitions, samples and sample time unless --repetitions / --samples / \
            --sample-ms say otherwise.

            Examples:
              bench check --baseline Benchmarks/Baselines/smoke.json --thresholds Benchmarks/Baselines/smoke-thresholds.json
              bench check --baseline main.json --results bench-results/20261123-101500/results.json --markdown gate.md
            """
    )

    @Option(help: "The baseline: a results.json written by `bench run`.")
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
        guard baseline != nil else { throw ValidationError("--baseline FILE is required: a results.json to compare with") }
        if let repetitions, repetitions < 1 { throw ValidationError("--repetitions must be at least 1, got \(repetitions)") }
    }

    func run() throws {
        let files = CommandFiles(command: "check")
        let baseline = self.baseline!  // validate() requires it
        let limits = try files.thresholds(thresholds)
        let base = try files.results(baseline, role: "baseline")
        try files.checkWritable(markdown)
        let new: RunResults
        if let results {
            new = try files.results(results, role: "results")
        } else {
            new = try runBaselineCases(base, files: files)
        }
        let comparison: Comparison
        do {
            comparison = try Comparison(base: base, new: new, thresholds: limits, force: force)
        } catch {
            throw files.failure("\(baseline) and the new run: \(error.description)")
        }
        try files.finish(comparison, detail: all ? .all : .changes, markdown: markdown, failOnRegression: true)
    }

    /// Runs the baseline's cases that this bench knows, with the baseline's settings.
    private func runBaselineCases(_ base: RunResults, files: CommandFiles) throws -> RunResults {
        let known = base.cases.map(\.benchmarkCase).filter { benchmarkCase in
            Workloads.named(benchmarkCase.workload) != nil
                && (benchmarkCase.backend == BenchmarkCase.noBackend || Backends.ids.contains(benchmarkCase.backend))
        }
        guard !known.isEmpty else {
            throw files.failure("\(baseline ?? ""): none of its \(base.cases.count) cases is known to this bench (`bench list` shows what is)")
        }
        let suite = Suite(rawValue: base.suite) ?? .quick
        var measurement = measurement
        if measurement.sampleMilliseconds == nil {
            measurement.sampleMilliseconds = max(1, Int(base.sampleTimeNanoseconds / 1_000_000))
        }
        if measurement.samples == nil, let samples = base.cases.lazy.compactMap({ $0.records.first?.nanosecondsPerOperation.count }).first {
            measurement.samples = samples
        }
        let plan = try RunPlan(cases: known, repetitions: repetitions ?? max(2, base.repetitions))
        let directory = output.directory(prefix: "check-")
        let measured = measurement, output = output
        return try runBlocking {
            try await RunAndWrite.run(plan, suite: suite, measurement: measured, output: output, directory: directory,
                                      label: "bench check").run
        }
    }
}

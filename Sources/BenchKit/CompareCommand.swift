import ArgumentParser
import Gate

/// `bench compare BASE.json NEW.json`: every case and metric of two runs, side by side.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two results files case by case: change, interval, significance, verdict.",
        discussion: """
            For every case and metric both runs measured: the base's and the new run's value, the \
            change with its 95% interval, the p-value after Holm's correction for the number of \
            rows, and the verdict: regression, improvement, no change (and why), or not comparable \
            (and why). A case whose processes failed in the new run but in none of the base's gets a \
            "new failure" row. Regressions and new failures are listed first. \
            The statistics work on one value per child \
            process (its median ns/op, or its mean where its samples switched modes; or its \
            counter delta per operation), so a run needs at least 2 repetitions per case, and 5 \
            or more to see changes of a few percent.

            A change is a regression only when it is significant (adjusted p below α), at least \
            the minimum effect, and larger than both the relative and the absolute limit of its \
            metric. Defaults per metric kind (override them with --thresholds; the file format is \
            in Sources/Gate/README.md):
              time   ns-per-op (each process's figure): α 0.01, min effect 3%,
                     limits 5% and 0.25 ns
              count  allocations, bytes, instructions: α 0.01, min effect 1%,
                     limits 1% and 0.05 per op (16 bytes)
              cpu    task-clock, CPU time, cycles: not compared unless turned on
              event  switches, faults, syscalls, misses: not compared unless
                     turned on
            Times and events from different machines (CPU, CPU count, VM, kernel) are not \
            comparable unless --force; counts always are.

            Exit status: 0 compared (whatever the verdicts: `bench check` is the gate), 2 a file \
            is missing, unreadable, malformed, of another schema, or the runs share no case.

            Examples:
              bench compare Results/results.json bench-results/20261123-101500/results.json
              bench compare ab/a.json ab/b.json --paired --markdown comparison.md
            """
    )

    @Argument(help: "The base run's results.json.")
    var base: String

    @Argument(help: "The new run's results.json.")
    var new: String

    @Option(help: "A thresholds file (JSON, schema 1) overriding the defaults.")
    var thresholds: String?

    @Flag(help: "Pair process i of BASE with process i of NEW (files written by `bench ab`).")
    var paired = false

    @Flag(help: "Compare times across different machines anyway.")
    var force = false

    @Flag(help: "List only the rows that are not \"no change\".")
    var changesOnly = false

    @Option(help: "Also write the comparison as Markdown (for a pull-request comment) to this file.")
    var markdown: String?

    func run() throws {
        let files = CommandFiles(command: "compare")
        let limits = try files.thresholds(thresholds)
        let baseRun = try files.results(base, role: "base")
        let newRun = try files.results(new, role: "new")
        try files.checkWritable(markdown)
        let comparison: Comparison
        do {
            comparison = try Comparison(
                base: baseRun, new: newRun, thresholds: limits, pairing: paired ? .paired : .unpaired, force: force)
        } catch {
            throw files.failure("\(base) and \(new): \(error.description)")
        }
        try files.finish(comparison, detail: changesOnly ? .changes : .all, markdown: markdown, failOnRegression: false)
    }
}

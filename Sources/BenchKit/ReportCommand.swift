import ArgumentParser
import Harness
import Results
import Reports
#if canImport(Glibc)
import Glibc
#endif

/// `bench report RESULTS.json [--out DIR]`: every output regenerated from a results file (or
/// from a run's journal: a run killed before it wrote results.json);
/// `bench report A.json B.json … --out DIR`: one report across machines (`MachineComparison`).
/// Errors exit with status 2 and one line naming the file and the problem; nothing is written
/// unless everything rendered.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the report, CSV, charts and exports again from a results.json, "
            + "or one report across machines from several.",
        discussion: """
            Reads a results.json written by `bench run` (which writes these same outputs at the \
            end of every run) and writes into DIR:
              report.md               what to use, the claims' verdicts, the machine and
                                      its counters, the best stride per body cost, a
                                      table per family and parameter set, failures;
                                      links the charts
              charts/*.svg            stride curves, thread scaling, latency percentiles,
                                      the first screen's answers
              report.html             report.md as one page that loads nothing: charts
                                      inline (hover a point, click a legend entry),
                                      tables sorted by a click on their header
              results.csv             tidy: one row per case and metric
              jmh-result.json         JMH's JSON layout, for JMH visualizers
              smaller-is-better.json  {name, unit, value} list for CI dashboards
                                      (github-action-benchmark's customSmallerIsBetter)
              google-benchmark.json   Google Benchmark's JSON layout (its compare.py,
                                      Bencher), the machine in its context
              results.influx          InfluxDB line protocol, a line per case, the
                                      machine as tags (Grafana)
              results.json            a copy of the input, only when DIR is not its
                                      directory

            Every figure is computed from the file: regenerate after changing the report code, or \
            to put a run's report somewhere else (a directory that is new or empty, or \
            --overwrite).

            A run killed before its end (SIGKILL, a lost machine) has no results.json, only its \
            journal: give the journal (DIR/journal.jsonl) or the run's directory, and every output, \
            results.json too, is written from it; report.md then says how many repetitions of how \
            many the run kept. `bench run --resume DIR` continues such a run instead.

            Several results files, one per machine (a CI matrix, a lab of different CPUs), all \
            of one suite, make one report across machines in DIR (--out is then required):
              report.md      the machines (M1, M2, … in the order given) and what
                             tells them apart; each parameter set's clear winner on
                             any machine checked on every machine, with the machines
                             where it does not hold (a tie, reversed, not measured);
                             each claim's verdict per machine; a table per family
                             with a column per machine and its ratio to M1
              charts/*.svg   stride curves and thread scaling, a series per machine
              machines.csv   tidy: a row per machine and case, figure, interval,
                             ratio to M1
            A statement is decided within each machine's run; figures of different machines \
            meet only as ratios.

            Exit status: 0 written, 2 unreadable, malformed or incompatible results file, files \
            of different suites, or DIR cannot be written (nothing is then half-written), 64 a \
            mistake on the command line (a DIR holding other files without --overwrite, several \
            files without --out).

            Examples:
              bench report bench-results/20261122-190000/results.json
              bench report Results/results.json --out /tmp/report
              bench report bench-results/20261122-190000        # results.json, or the journal of a killed run
              bench report intel/results.json amd/results.json --out across-machines
            """
    )

    @Argument(
        help:
            """
            A results.json written by `bench run` (or a run's journal.jsonl, or its directory); \
            several results files, one per machine, for a report across machines.
            """)
    var files: [String]

    @Option(
        help:
            """
            Directory to write into (default: the results file's directory; required with several files). \
            Created if missing; another directory must be new or empty.
            """)
    var out: String?

    @Flag(help: "Write into an --out that already holds files: bench's files in it are removed first.")
    var overwrite = false

    @Flag(
        help:
            """
            Every counter and figure as a column of report.md's family tables. By default a table has at most \
            8 columns: the counters that differ most between its contenders, the others named under it.
            """)
    var allColumns = false

    func validate() throws {
        guard !files.isEmpty else {
            throw ValidationError("give a results.json, or several for a report across machines")
        }
        if files.count > 1 {
            guard let out else {
                throw ValidationError(
                    "\(files.count) results files make one report across machines: say where it goes with --out DIR")
            }
            try ExitStatus.refuseReuse(of: out, overwrite: overwrite)
            return
        }
        // Writing beside its own results file is what `report` is for; anywhere else, another
        // run's results there would be replaced without a word.
        if let out, !CommandFiles.sameFile(files[0], out + "/results.json") {
            try ExitStatus.refuseReuse(of: out, overwrite: overwrite)
        }
    }

    func run() throws {
        if files.count > 1 { return try acrossMachines(out!) }
        let (results, fromJournal) = Self.input(files[0])
        let directory = out ?? CommandFiles.directory(of: results)
        let run: RunResults
        if fromJournal {
            do { run = try RunJournal(path: results).results() } catch { throw Self.failure(error.description) }
            print("bench report: rebuilt from \(results)\(run.interrupted.map { ": \($0)" } ?? "")")
        } else {
            do {
                run = try ResultsJSON.decode(
                    try CommandFiles.readText(results), olderFilesMetrics: MeasurementOptions.described)
            } catch let error as ValidationError {
                throw Self.failure(error.message)
            } catch {
                throw Self.failure(
                    "\(results) is not a results file this bench can read: \(CommandFiles.describe(error))")
            }
        }
        let written: [String]
        do {
            if overwrite, out != nil, !CommandFiles.sameFile(results, directory + "/results.json") {
                try OutputDirectory.prepareForRun(directory, overwrite: true)
            }
            written = try ResultsWriter.write(
                RunAnalysis(run), to: directory,
                includingResultsJSON: fromJournal || !CommandFiles.sameFile(results, directory + "/results.json"),
                allColumns: allColumns)
        } catch {
            throw Self.failure("cannot write the report to \(directory): \(error)")
        }
        print("bench: wrote \(directory)/: \(ResultsWriter.summary(written))")
    }

    /// The file to read for `path`, and whether it is a journal: a directory means its
    /// results.json, or its journal when the run wrote no results.json (it was killed).
    static func input(_ path: String) -> (file: String, journal: Bool) {
        guard HistoryCommand.isDirectory(path) else { return (path, path.hasSuffix(".jsonl")) }
        let results = path + "/" + ResultsJSON.fileName
        return access(results, F_OK) == 0 ? (results, false) : (path + "/" + RunJournal.fileName, true)
    }

    /// One report across the machines of `files`, into `directory`.
    private func acrossMachines(_ directory: String) throws {
        let reader = CommandFiles(command: "report")
        let runs = try files.map { (file: $0, run: try reader.results($0, role: "results")) }
        let comparison: MachineComparison
        do { comparison = try MachineComparison(runs) } catch { throw Self.failure(error.description) }
        let written: [String]
        do {
            if overwrite { try OutputDirectory.prepareForRun(directory, overwrite: true) }
            written = try ResultsWriter.write(comparison, to: directory)
        } catch {
            throw Self.failure("cannot write the report to \(directory): \(error)")
        }
        let statements = comparison.winners + comparison.allocators
        print(
            "bench report: \(comparison.machines.count) machines; \(statements.filter(\.holdsEverywhere).count) of "
                + "\(statements.count) statements hold on every machine")
        print("bench: wrote \(directory)/: \(ResultsWriter.summary(written))")
    }

    /// Prints `message` to standard error; the error exits with status 2 (ArgumentParser prints
    /// nothing more for an `ExitCode`, so no usage text buries the message).
    static func failure(_ message: String) -> ExitCode { ExitStatus.fileProblem("bench report", message) }
}

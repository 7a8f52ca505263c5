import ArgumentParser
import Harness
import Results
import Reports
#if canImport(Glibc)
import Glibc
#endif

/// `bench report RESULTS.json [--out DIR]`: every output regenerated from a results file.
/// Errors exit with status 2 and one line naming the file and the problem; nothing is written
/// unless everything rendered.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the report, CSV, charts and exports again from a results.json.",
        discussion: """
            Reads a results.json written by `bench run` (which writes these same outputs at the \
            end of every run) and writes into DIR:
              report.md               what to use, the claims' verdicts, the machine and its counters,
                                      the best stride per body cost, a table per family and
                                      parameter set, failures; links the charts
              charts/*.svg            stride curves, thread scaling, latency percentiles
              results.csv             tidy: one row per case and metric
              jmh-result.json         JMH's JSON layout, for JMH visualizers
              smaller-is-better.json  {name, unit, value} list for CI dashboards
                                      (github-action-benchmark's customSmallerIsBetter)
              google-benchmark.json   Google Benchmark's JSON layout (its compare.py,
                                      Bencher), the machine in its context
              results.influx          InfluxDB line protocol, a line per case, the
                                      machine as tags (Grafana)
              results.json            a copy of the input, only when DIR is not its directory

            Every figure is computed from the file: regenerate after changing the report code, or \
            to put a run's report somewhere else (a directory that is new or empty, or \
            --overwrite). Exit status: 0 written, 2 unreadable, malformed or incompatible results \
            file, or DIR cannot be written (nothing is then half-written), 64 a mistake on the \
            command line (a DIR holding other files without --overwrite).

            Examples:
              bench report bench-results/20261122-190000/results.json
              bench report Results/results.json --out /tmp/report
            """
    )

    @Argument(help: "A results.json written by `bench run`.")
    var results: String

    @Option(help: "Directory to write into (default: the results file's directory). Created if missing; another directory must be new or empty.")
    var out: String?

    @Flag(help: "Write into an --out that already holds files: bench's files in it are removed first.")
    var overwrite = false

    func validate() throws {
        // Writing beside its own results file is what `report` is for; anywhere else, another
        // run's results there would be replaced without a word.
        if let out, !CommandFiles.sameFile(results, out + "/results.json") { try ExitStatus.refuseReuse(of: out, overwrite: overwrite) }
    }

    func run() throws {
        let directory = out ?? CommandFiles.directory(of: results)
        let run: RunResults
        do {
            run = try ResultsJSON.decode(try CommandFiles.readText(results), olderFilesMetrics: MeasurementOptions.described)
        } catch let error as ValidationError {
            throw Self.failure(error.message)
        } catch {
            throw Self.failure("\(results) is not a results file this bench can read: \(CommandFiles.describe(error))")
        }
        let written: [String]
        do {
            if overwrite, out != nil, !CommandFiles.sameFile(results, directory + "/results.json") {
                try OutputDirectory.prepareForRun(directory, overwrite: true)
            }
            written = try ResultsWriter.write(run, to: directory, includingResultsJSON: !CommandFiles.sameFile(results, directory + "/results.json"))
        } catch {
            throw Self.failure("cannot write the report to \(directory): \(error)")
        }
        print("bench: wrote \(directory)/: \(ResultsWriter.summary(written))")
    }

    /// Prints `message` to standard error; the error exits with status 2 (ArgumentParser prints
    /// nothing more for an `ExitCode`, so no usage text buries the message).
    static func failure(_ message: String) -> ExitCode { ExitStatus.fileProblem("bench report", message) }
}

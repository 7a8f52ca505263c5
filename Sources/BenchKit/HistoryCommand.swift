import ArgumentParser
import Harness
import Reports
import Results
#if canImport(Glibc)
import Glibc
#endif

/// `bench history FILES-OR-DIRS… --out DIR`: a series of runs (one machine's, oldest first), each
/// case's trend charted, and its change points found by Apache Otava over a CSV bench writes in
/// Otava's input layout. Bad input exits 2 before anything is written; a missing Otava is not an
/// error: the CSV, its configuration and the command that runs it are written, and the report says
/// why the change points are missing.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Chart a series of runs over time and find where each case changed (Apache Otava).",
        discussion: """
            Reads results.json files (a directory is searched for every results.json under it, \
            e.g. CI artifacts of main), orders the runs by the time each records, and writes into \
            DIR:
              report.md     per machine: each change point (case, metric, the runs
                            and commits on either side, the means before and
                            after, the change, Otava's p-value), the runs in
                            order, every case's first and last figure
              charts/*.svg  a trend per case and metric: each run's figure with
                            its repeat interval, change points marked
              otava-M1.csv  Otava's input: a row per run (time, commit), a
                            column per case and metric measured in every run
              otava.yaml    Otava's configuration for those files

            Runs of different machines (their identities differ: CPU, usable CPUs, kernel, Swift) \
            are split into a series each, M1, M2, …: a faster machine is not a change. Runs of \
            different suites are refused.

            Change points come from `otava analyze` (Apache Otava: e-divisive with a t-test) when \
            it is installed: RUNTIMEBENCH_OTAVA, `otava` on PATH, or \
            /opt/runtimebench/venv/bin/otava (tools/install-deps.sh puts it there). Without it the \
            report says so, and how to run it on the CSV.

            Exit status: 0 written, 2 a file that cannot be read or is not a results file, a \
            directory with no results.json, runs of different suites, a run that does not record \
            when it started, or DIR cannot be written; 64 a mistake on the command line.

            Examples:
              bench history ci-artifacts/ --out history
              bench history runs/*/results.json --out history --min-change 10
            """
    )

    @Argument(help: "results.json files, or directories to search for them.")
    var paths: [String]

    @Option(help: "Directory to write into; must be new or empty (or --overwrite).")
    var out: String

    @Flag(help: "Write into an --out that already holds files: bench's files in it are removed first.")
    var overwrite = false

    @Option(name: .customLong("counter"), help: "Also follow this counter per operation, e.g. task-clock (repeatable).")
    var counters: [String] = []

    @Option(help: "The smallest change Otava reports, in percent of the mean (a run drifts by about 4% on a VM).")
    var minChange: Double = 5

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give results.json files, or directories holding them") }
        guard minChange > 0, minChange < 100 else {
            throw ValidationError("--min-change is a percentage above 0 and below 100; got \(minChange)")
        }
        try ExitStatus.refuseReuse(of: out, overwrite: overwrite)
    }

    func run() throws {
        let reader = CommandFiles(command: "history")
        var files: [String] = []
        for path in paths {
            guard Self.isDirectory(path) else { files.append(path); continue }
            let found = Self.resultsFiles(under: path)
            guard !found.isEmpty else { throw reader.failure("\(path) holds no results.json") }
            files += found
        }
        let runs = try files.map { (file: $0, run: try reader.results($0, role: "run")) }
        let histories: [RunHistory]
        do { histories = try RunHistory.split(runs, counters: counters) } catch {
            throw reader.failure(error.description)
        }
        let measured = Set(runs.flatMap { $0.run.cases.flatMap(\.counterNames) })
        for counter in counters where !measured.contains(counter) {
            throw ValidationError(
                "no run measured the counter \(counter); they measured: \(measured.sorted().joined(separator: ", "))")
        }
        print(
            "bench history: \(runs.count) runs; "
                + histories.map { "\($0.label): \($0.runs.count) runs" }.joined(separator: ", "))

        let minimum = minChange / 100
        let inputs: [String]
        do {
            try OutputDirectory.prepareForRun(out, overwrite: overwrite)
            inputs = try ResultsWriter.write(
                HistoryReport.otavaInputs(histories, directory: CommandFiles.absolute(out), minimumChange: minimum),
                to: out)
        } catch {
            throw reader.failure("cannot write to \(out): \(error)")
        }
        let configuration = CommandFiles.absolute(out) + "/" + OtavaInput.configFileName
        let analyses = histories.map { history -> HistoryReport.Analysis in
            guard history.runs.count >= 3 else {
                return .notComputed(
                    "a series of \(history.runs.count) runs is too short for change points (3 at least)")
            }
            let analysed = OtavaInput.analysed(history)
            guard !analysed.isEmpty else { return .notComputed("no case was measured in every run") }
            let otava: Otava
            switch Otava.locate() {
            case .success(let found): otava = found
            case .failure(let reason): return .notComputed(reason.description)
            }
            print(
                "bench history: otava analyze \(OtavaInput.testName(history)) (\(analysed.count) trends, "
                    + "\(history.runs.count) runs)")
            let test = OtavaInput.testName(history)
            let arguments = OtavaInput.arguments(history, minimumChange: minimum)
            let result =
                (try? runBlocking { await otava.run(arguments, configuration: configuration) })
                ?? .failure(Otava.Unavailable(description: "otava did not run"))
            switch result {
            case .failure(let reason): return .notComputed(reason.description)
            case .success(let json):
                do {
                    let names = Set(analysed.map(\.name))
                    return .found(try ChangePoint.parse(json, test: test, trends: names, runs: history.runs.count))
                } catch {
                    return .notComputed("\(error)")
                }
            }
        }
        for (history, analysis) in zip(histories, analyses) {
            switch analysis {
            case .found(let points):
                print("bench history: \(history.label): \(points.count) change point\(points.count == 1 ? "" : "s")")
            case .notComputed(let reason):
                print("bench history: \(history.label): change points not computed: \(reason)")
            }
        }
        let written: [String]
        do {
            let report = HistoryReport.outputs(
                histories, analyses: analyses, directory: CommandFiles.absolute(out), minimumChange: minimum)
            written = inputs + (try ResultsWriter.write(report, to: out))
        } catch {
            throw reader.failure("cannot write the report to \(out): \(error)")
        }
        print("bench: wrote \(out)/: \(ResultsWriter.summary(written))")
    }

    static func isDirectory(_ path: String) -> Bool {
        var facts = stat()
        return stat(path, &facts) == 0 && (facts.st_mode & S_IFMT) == S_IFDIR
    }

    /// Every file named results.json under `directory`, at any depth, sorted by path.
    static func resultsFiles(under directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var found: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let path = directory + "/" + name
            if isDirectory(path) {
                found += resultsFiles(under: path)
            } else if name == ResultsJSON.fileName {
                found.append(path)
            }
        }
        return found.sorted()
    }
}

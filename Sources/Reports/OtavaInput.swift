import Results

/// A series in Apache Otava's CSV input layout, with the configuration that points Otava at it:
/// one row per run (oldest first), a `time` column, the run's `commit` as an attribute, and a
/// column per trend measured in every run (Otava reads a number in every cell; a trend with a gap
/// is charted but not analysed, and the report says so). Every metric is lower-is-better
/// (direction -1), so Otava calls a rise a regression.
///
/// Otava indexes runs by time: runs that started within one second of each other are spaced a
/// second apart in the CSV so each keeps its place (the report shows the times the runs recorded).
/// Otava reads only the last 365 days up to now unless told otherwise, which would drop old runs
/// (and shift every change's run number) or runs spaced past now: `arguments` names the series'
/// whole span.
public enum OtavaInput {
    /// The test's name in the configuration: "runtimebench-M1".
    public static func testName(_ history: RunHistory) -> String { "runtimebench-\(history.label)" }

    public static func csvFileName(_ history: RunHistory) -> String { "otava-\(history.label).csv" }

    public static let configFileName = "otava.yaml"

    /// The trends Otava is given: those measured in every run.
    public static func analysed(_ history: RunHistory) -> [RunHistory.Trend] { history.trends.filter(\.isComplete) }

    public static func csv(_ history: RunHistory) -> String {
        let trends = analysed(history)
        var lines = [ResultsCSV.row(["time", "commit"] + trends.map(\.name))]
        for (position, (run, seconds)) in zip(history.runs, times(history)).enumerated() {
            lines.append(
                ResultsCSV.row([time(seconds), run.commit] + trends.map { ResultsCSV.number($0.values[position]!) }))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `otava analyze`'s arguments for the series: its test, the whole span of its CSV, and the
    /// smallest relative change to report.
    public static func arguments(_ history: RunHistory, minimumChange: Double) -> [String] {
        let times = times(history)
        return [
            "analyze", testName(history), "--since", time(times.first!), "--until", time(times.last! + 1), "-M",
            "\(minimumChange)",
        ]
    }

    /// Each run's time in the CSV, seconds since 1970: when it started, or a second after the
    /// previous run's when that is later.
    static func times(_ history: RunHistory) -> [Int64] {
        var previous = Int64.min
        return history.runs.map { run in
            previous = max(run.started.secondsSinceEpoch, previous == .min ? .min : previous + 1)
            return previous
        }
    }

    /// ISO 8601 in UTC: "2026-11-25T03:45:04Z".
    static func time(_ seconds: Int64) -> String {
        RunResults.Instant(secondsSinceEpoch: seconds).description.replacing(" ", with: "T") + "Z"
    }

    /// One test per series, each reading its CSV from `directory` (Otava resolves a relative
    /// file against its working directory, so the path is written whole).
    public static func configuration(_ histories: [RunHistory], directory: String, minimumChange: Double) -> String {
        var lines = ["# Apache Otava's configuration for the series bench history wrote here. Run:"]
        lines += histories.map { "#   " + command($0, directory: directory, minimumChange: minimumChange) }
        lines.append("tests:")
        for history in histories {
            lines += [
                "  \(testName(history)):", "    type: csv",
                "    file: \(quoted(directory + "/" + csvFileName(history)))",
                "    time_column: time", "    attributes: [commit]", "    metrics:",
            ]
            for trend in analysed(history) {
                lines += [
                    "      \(quoted(trend.name)):", "        column: \(quoted(trend.name))", "        direction: -1",
                ]
            }
            if analysed(history).isEmpty { lines[lines.count - 1] = "    metrics: {}" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The shell command that runs Otava on the series as bench does (its output as a table).
    public static func command(_ history: RunHistory, directory: String, minimumChange: Double) -> String {
        "OTAVA_CONFIG=\(directory)/\(configFileName) otava "
            + arguments(history, minimumChange: minimumChange).joined(separator: " ")
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

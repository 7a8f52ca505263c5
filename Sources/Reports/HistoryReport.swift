import Charts
import Results

/// The files of `bench history`: per series (one machine's runs, `RunHistory`), Otava's input
/// (`OtavaInput`), and report.md with the change points Otava found (or why it did not run, and
/// the command that runs it), the runs, and a trend chart per case and metric.
public enum HistoryReport {
    /// What became of a series' change-point analysis.
    public enum Analysis: Sendable {
        /// Otava ran and found these (none, perhaps).
        case found([ChangePoint])
        /// It did not run, or its output could not be read: why.
        case notComputed(String)
    }

    /// Otava's CSV per series and its configuration: written before Otava runs, since it reads them.
    public static func otavaInputs(_ histories: [RunHistory], directory: String, minimumChange: Double)
        -> [ResultsWriter.Output]
    {
        histories.map { ResultsWriter.Output(path: OtavaInput.csvFileName($0), contents: OtavaInput.csv($0)) }
            + [
                ResultsWriter.Output(
                    path: OtavaInput.configFileName,
                    contents: OtavaInput.configuration(histories, directory: directory, minimumChange: minimumChange))
            ]
    }

    /// report.md and the trend charts; `analyses` in `histories` order.
    public static func outputs(
        _ histories: [RunHistory], analyses: [Analysis], directory: String, minimumChange: Double
    ) -> [ResultsWriter.Output] {
        var charts: [ReportChart] = []
        var lines = ["# RuntimeBench history", ""]
        let runs = histories.flatMap(\.runs)
        let first = runs.map(\.started).min()!, last = runs.map(\.started).max()!
        lines.append(
            "\(runs.count) runs of suite **\(runs[0].results.suite)** from \(first) to \(last) (UTC)"
                + (histories.count == 1
                    ? ", all on one machine."
                    : ", on \(histories.count) machines: each machine's runs are a "
                        + "series of their own, so one machine's faster CPU is never read as a change in another's."))
        for (history, analysis) in zip(histories, analyses) {
            // Each run's cases by id, once per series: every trend's points look up their case in each run.
            let cases = history.runs.map { run in
                Dictionary(run.results.cases.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            let drawn = history.trends.compactMap { trend in
                chart(trend, history: history, cases: cases, analysis: analysis)
            }
            charts += drawn.map(\.chart)
            lines +=
                [""]
                + section(
                    history, analysis: analysis, directory: directory, minimumChange: minimumChange,
                    charts: Dictionary(
                        drawn.map { ($0.trend, $0.chart.file) },
                        uniquingKeysWith: { a, _ in a }))
        }
        return [ResultsWriter.Output(path: "report.md", contents: lines.joined(separator: "\n") + "\n")]
            + charts.map { ResultsWriter.Output(path: $0.file, contents: $0.svg) }
    }

    static func section(
        _ history: RunHistory, analysis: Analysis, directory: String, minimumChange: Double,
        charts: [String: String]
    ) -> [String] {
        let environment = history.runs[0].results.environment
        var lines = [
            "## \(history.label): \(environment.cpuModel), \(environment.cpusAtOnce) usable of "
                + "\(environment.onlineCPUs) CPUs, \(environment.kernel), \(environment.swiftCompiler) "
                + "(\(history.runs.count) runs)", "",
        ]
        lines += ["### Change points", ""]
        let analysed = OtavaInput.analysed(history)
        let command = "`" + OtavaInput.command(history, directory: directory, minimumChange: minimumChange) + "`"
        switch analysis {
        case .notComputed(let reason):
            lines.append(
                "Not computed: \(reason). Otava's input is \(OtavaInput.csvFileName(history)) "
                    + "(\(analysed.count) trends); \(command) computes them.")
        case .found(let points):
            let how =
                "Apache Otava over \(OtavaInput.csvFileName(history)) (\(analysed.count) trends measured in every "
                + "run; e-divisive with Otava's t-test, "
                + "changes of at least \(Figures.value(minimumChange * 100))%; \(command) again)"
            if points.isEmpty {
                lines.append("None: \(how) found no change.")
            } else {
                lines += [
                    "\(points.count) found by \(how). A change is between the run before it and the run it names; "
                        + "the means are over the runs between it and the neighbouring change points.", "",
                ]
                var table = MarkdownTable([
                    ("case", .left), ("metric", .left), ("between runs", .left), ("commits", .left),
                    ("mean before → after", .right), ("change", .right), ("p-value", .right),
                ])
                let byName = Dictionary(history.trends.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
                for point in points {
                    let trend = byName[point.trend]
                    let before = history.runs[point.run - 1], after = history.runs[point.run]
                    table.rows.append([
                        trend?.caseID ?? point.trend, trend.map { $0.heading } ?? "",
                        "\(point.run) → \(point.run + 1) (\(after.started))",
                        "\(before.commit.prefix(12)) → \(after.commit.prefix(12))",
                        "\(Figures.value(point.meanBefore)) → \(Figures.value(point.meanAfter))",
                        (point.change >= 0 ? "+" : "") + Figures.value(point.change * 100) + "%",
                        pValue(point.pValue),
                    ])
                }
                lines += table.lines
            }
        }
        let gaps = history.trends.filter { !$0.isComplete }
        if !gaps.isEmpty {
            lines += [
                "",
                "Not analysed, measured in only some runs (\(gaps.count)): "
                    + gaps.prefix(10).map { "`\($0.name)`" }.joined(separator: ", ") + (gaps.count > 10 ? ", …" : "")
                    + ".",
            ]
        }
        var runs = MarkdownTable([("run", .right), ("started (UTC)", .left), ("commit", .left), ("file", .left)])
        runs.rows = history.runs.enumerated().map {
            ["\($0.offset + 1)", "\($0.element.started)", String($0.element.commit.prefix(12)), "`\($0.element.file)`"]
        }
        lines += ["", "### Runs, oldest first", ""] + runs.lines
        var trends = MarkdownTable([
            ("case", .left), ("metric", .left), ("first", .right), ("last", .right), ("last ÷ first", .right),
            ("chart", .left),
        ])
        for trend in history.trends {
            let values = trend.values.compactMap { $0 }
            trends.rows.append([
                trend.caseID, trend.heading, Figures.value(values.first!), Figures.value(values.last!),
                values.first! > 0 ? Figures.ratio(values.last! / values.first!) : "—",
                charts[trend.name].map { "[chart](\($0))" } ?? "—",
            ])
        }
        lines +=
            [
                "", "### Trends", "",
                "Each case's figure (and each counter asked for) in every run; a chart shows the run's repeat interval "
                    + "around its figure and marks the change points.", "",
            ] + trends.lines
        return lines
    }

    /// A p-value as Otava prints it, to six decimals: "0.0004", "< 0.000001" below that.
    static func pValue(_ p: Double) -> String {
        let millionths = Int((p * 1_000_000).rounded())
        guard millionths > 0 else { return "< 0.000001" }
        guard millionths < 1_000_000 else { return "1" }
        var digits = String(millionths)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "0." + digits
    }

    /// The trend's chart: its values by run with each run's repeat interval as a band (a run's
    /// figure against the others' is a question of repeat runs, not of cases within one run), and
    /// a marker at each change point.
    /// `cases`: each run's cases by id, in `history.runs` order.
    static func chart(
        _ trend: RunHistory.Trend, history: RunHistory, cases: [[String: CaseResult]], analysis: Analysis
    ) -> (
        trend: String, chart: ReportChart
    )? {
        let measured = cases.map { $0[trend.caseID] }
        let points = trend.values.enumerated().compactMap { index, value -> LineChart.Point? in
            guard let value else { return nil }
            let run = history.runs[index]
            let interval = trend.intervals[index]
            let processes = measured[index].map { $0.records.count }
            return LineChart.Point(
                x: Double(index + 1), y: value, interval: interval.map { ($0.lower, $0.upper) },
                note: LineChart.Note(
                    subject: "\(trend.caseID), run \(index + 1) (\(run.commit.prefix(12)), \(run.started))",
                    figure: "\(Figures.value(value)) \(trend.heading)",
                    interval: interval.map { "repeat interval " + Figures.interval($0) }, processes: processes))
        }
        guard points.count >= 2, points.allSatisfy({ $0.y > 0 }) else { return nil }
        var series = [LineChart.Series(name: trend.heading, points: points)]
        if case .found(let found) = analysis {
            let marks = found.filter { $0.trend == trend.name }.compactMap { point in
                trend.values[point.run].map { (x: Double(point.run + 1), y: $0) }
            }
            if !marks.isEmpty { series.append(LineChart.Series(name: "change point", points: marks)) }
        }
        let title = "\(trend.caseID): \(trend.heading) by run, \(history.label)"
        let allocator = measured.lazy.compactMap { $0?.benchmarkCase.allocator.rawValue }.first
        let chart = LineChart(
            title: title, subtitle: allocator.map { "\($0) allocator" },
            x: .init(label: "run, oldest first", scale: .linear),
            y: .init(label: "\(trend.heading) (log scale)", scale: .logarithmic), series: series,
            bandLegend: "band: repeat interval (95%)")
        let stem = "trend-\(history.label)-\(trend.caseID)" + (trend.metric == .figure ? "" : "-\(trend.metric)")
        return (
            trend.name,
            ReportChart(
                file: ReportChart.fileName(stem), title: title, section: .family(history.label), svg: chart.svg())
        )
    }
}

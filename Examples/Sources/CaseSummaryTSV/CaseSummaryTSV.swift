import Reports
import Results

/// An output format of this package's own: summary.tsv, one line per case with its figure and
/// the interval a repeat run's figure should fall in, for a spreadsheet or `sort -t$'\t' -k2 -g`.
/// It reads the same analysis as report.md, so its figures are the report's.
public enum CaseSummaryTSV: OutputFormat {
    public static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        var lines = ["case\tns_per_op\tlower\tupper\tprocesses"]
        for result in input.run.cases {
            let id = result.benchmarkCase.id
            guard let estimate = input.analysis.estimates[id] else {
                lines.append("\(id)\tnot measured\t\t\t0")
                continue
            }
            let interval = estimate.repeatInterval
            lines.append("\(id)\t\(estimate.value)\t\(interval.lower)\t\(interval.upper)\t\(estimate.processes)")
        }
        return [ResultsWriter.Output(path: "summary.tsv", contents: lines.joined(separator: "\n") + "\n")]
    }
}

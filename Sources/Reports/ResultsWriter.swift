import Claims
import Results

/// Every output of a run, rendered in memory first and then written into a directory, each file
/// through a temporary file and a rename: a failure while rendering writes nothing, and no file
/// is ever seen half-written. Adding a format is one file in this module and one line in
/// `formats`.
public enum ResultsWriter {
    /// One output file: its path relative to the output directory, and its text.
    public struct Output: Sendable {
        public let path: String
        public let contents: String
    }

    /// Every output of `run`, results.json first when `includingResultsJSON` (a report
    /// regenerated next to the results file it read leaves that file alone).
    public static func outputs(of run: RunResults, includingResultsJSON: Bool = true) throws -> [Output] {
        try outputs(of: RunAnalysis(run), includingResultsJSON: includingResultsJSON)
    }

    /// Every format a run's outputs hold, in the order they are written: results.json first.
    static let formats: [any OutputFormat.Type] = [
        ResultsJSON.self, ResultsCSV.self, MarkdownReport.self, ReportChart.self, JMHExport.self, SmallerIsBetterExport.self,
        GoogleBenchmarkExport.self, InfluxLineProtocolExport.self,
    ]

    /// Every output of an analysed run: every case's figure is estimated once (`RunAnalysis`),
    /// arranged once (`ReportInput`), and read by every format.
    public static func outputs(of analysis: RunAnalysis, includingResultsJSON: Bool = true) throws -> [Output] {
        let input = ReportInput(analysis)
        return try formats.filter { includingResultsJSON || $0 != ResultsJSON.self }.flatMap { try $0.outputs(of: input) }
    }

    /// Renders every output of `run`, then writes them under `directory`. Returns what was
    /// written, as relative paths in `outputs` order.
    @discardableResult
    public static func write(_ run: RunResults, to directory: String, includingResultsJSON: Bool = true) throws -> [String] {
        try write(RunAnalysis(run), to: directory, includingResultsJSON: includingResultsJSON)
    }

    /// `write` for a run already analysed (`bench run` prints from the same analysis).
    @discardableResult
    public static func write(_ analysis: RunAnalysis, to directory: String, includingResultsJSON: Bool = true) throws -> [String] {
        try write(outputs(of: analysis, includingResultsJSON: includingResultsJSON), to: directory)
    }

    /// A report across machines (`MachineReport`), written as a run's outputs are.
    @discardableResult
    public static func write(_ comparison: MachineComparison, to directory: String) throws -> [String] {
        try write(MachineReport.outputs(of: comparison), to: directory)
    }

    /// Writes `rendered` under `directory` (created if needed, with its charts/ folder), each file
    /// through a temporary file and a rename; returns the relative paths in order. Charts of an
    /// earlier write that `rendered` does not hold are removed.
    @discardableResult
    public static func write(_ rendered: [Output], to directory: String) throws -> [String] {
        try OutputDirectory.create(directory)
        // Charts of a previous write that this one no longer draws go: a report regenerated in
        // place must not link to, or sit beside, another run's charts.
        let charts = Set(rendered.map(\.path).filter { $0.hasPrefix(ReportChart.directory + "/") }.map { String($0.dropFirst(ReportChart.directory.count + 1)) })
        try OutputDirectory.removeCharts(in: directory, keeping: charts)
        if !charts.isEmpty {
            try OutputDirectory.create(directory + "/" + ReportChart.directory)
        }
        for output in rendered {
            try writeAtomically(output.contents, to: directory + "/" + output.path)
        }
        return rendered.map(\.path)
    }

    /// "results.json, results.csv, report.md, 12 charts in charts/, jmh-result.json, …": what a
    /// write produced, for a progress line.
    public static func summary(_ paths: [String]) -> String {
        let charts = paths.filter { $0.hasPrefix(ReportChart.directory + "/") }.count
        var parts = paths.filter { !$0.hasPrefix(ReportChart.directory + "/") }
        if charts > 0, let report = parts.firstIndex(of: "report.md") {
            parts.insert("\(charts) chart\(charts == 1 ? "" : "s") in \(ReportChart.directory)/", at: report + 1)
        }
        return parts.joined(separator: ", ")
    }
}

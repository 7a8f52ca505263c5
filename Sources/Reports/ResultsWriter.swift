import Claims
import PThreadPrimitives
import Results
import RuntimeKit

/// Every output of a run, rendered in memory first and then written into a directory, each file
/// through a temporary file and a rename: a failure while rendering writes nothing, and no file
/// is ever seen half-written. Adding a format is one file in this module and one line in
/// `builtIn`, or `register` from another package.
public enum ResultsWriter {
    /// One output file: its path relative to the output directory, and its text.
    public struct Output: Sendable {
        public let path: String
        public let contents: String

        public init(path: String, contents: String) {
            self.path = path
            self.contents = contents
        }
    }

    /// Two formats would write one file: the second would silently replace the first.
    public struct CollidingOutputs: Error, CustomStringConvertible {
        public let path: String
        public let formats: (String, String)
        public var description: String { "\(formats.0) and \(formats.1) both write \(path)" }
    }

    /// Every output of `run`, results.json first when `includingResultsJSON` (a report
    /// regenerated next to the results file it read leaves that file alone).
    public static func outputs(of run: RunResults, includingResultsJSON: Bool = true) throws -> [Output] {
        try outputs(of: RunAnalysis(run), includingResultsJSON: includingResultsJSON)
    }

    /// This package's formats, in the order they are written: results.json first.
    static let builtIn: [any OutputFormat.Type] = [
        ResultsJSON.self, ResultsCSV.self, MarkdownReport.self, ReportChart.self, HTMLReport.self, JMHExport.self,
        SmallerIsBetterExport.self,
        GoogleBenchmarkExport.self, InfluxLineProtocolExport.self,
    ]

    /// Written by `register`, once before anything reads it; a pthread mutex because
    /// ThreadSanitizer does not see `Synchronization.Mutex`'s lock.
    private static let lock = PThreadMutex()
    nonisolated(unsafe) private static var registered: [any OutputFormat.Type] = []

    /// Every format a run's outputs hold, built in then registered, in the order they are written.
    public static var formats: [any OutputFormat.Type] { builtIn + lock.withLock { registered } }

    /// Adds another package's formats after the built-in ones. A type registered twice is
    /// refused; two formats that write one path fail the write with `CollidingOutputs`.
    public static func register(_ formats: [any OutputFormat.Type]) throws(RegistrationError) {
        try lock.withLock { () throws(RegistrationError) in
            var known = builtIn + registered
            for format in formats {
                if known.contains(where: { $0 == format }) { throw .registeredTwice(type: "\(format)") }
                known.append(format)
            }
            registered = Array(known.dropFirst(builtIn.count))
        }
    }

    /// Every output of an analysed run: every case's figure is estimated once (`RunAnalysis`),
    /// arranged once (`ReportInput`), and read by every format.
    /// `allColumns`: every counter a column of the family tables (`ReportInput.allColumns`).
    public static func outputs(of analysis: RunAnalysis, includingResultsJSON: Bool = true, allColumns: Bool = false)
        throws -> [Output]
    {
        try render(
            formats.filter { includingResultsJSON || $0 != ResultsJSON.self },
            ReportInput(analysis, allColumns: allColumns))
    }

    /// Each format's outputs, in order; two that write one path throw `CollidingOutputs`.
    static func render(_ formats: [any OutputFormat.Type], _ input: ReportInput) throws -> [Output] {
        var writer: [String: String] = [:]
        var outputs: [Output] = []
        for format in formats {
            for output in try format.outputs(of: input) {
                if let other = writer.updateValue("\(format)", forKey: output.path) {
                    throw CollidingOutputs(path: output.path, formats: (other, "\(format)"))
                }
                outputs.append(output)
            }
        }
        return outputs
    }

    /// Renders every output of `run`, then writes them under `directory`. Returns what was
    /// written, as relative paths in `outputs` order.
    @discardableResult
    public static func write(_ run: RunResults, to directory: String, includingResultsJSON: Bool = true) throws
        -> [String]
    {
        try write(RunAnalysis(run), to: directory, includingResultsJSON: includingResultsJSON)
    }

    /// `write` for a run already analysed (`bench run` prints from the same analysis).
    @discardableResult
    public static func write(
        _ analysis: RunAnalysis, to directory: String, includingResultsJSON: Bool = true, allColumns: Bool = false
    ) throws -> [String] {
        try write(
            outputs(of: analysis, includingResultsJSON: includingResultsJSON, allColumns: allColumns), to: directory)
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
        let charts = Set(
            rendered.map(\.path).filter { $0.hasPrefix(ReportChart.directory + "/") }.map {
                String($0.dropFirst(ReportChart.directory.count + 1))
            })
        try OutputDirectory.removeCharts(in: directory, keeping: charts)
        if !charts.isEmpty {
            try OutputDirectory.create(directory + "/" + ReportChart.directory)
        }
        for output in rendered {
            let folder = output.path.split(separator: "/").dropLast().joined(separator: "/")
            if !folder.isEmpty { try OutputDirectory.create(directory + "/" + folder) }
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

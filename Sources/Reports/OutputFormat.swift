/// One kind of file a run's outputs hold (results.json, report.md, the charts, an export). Every
/// format reads the same `ReportInput`, built once per write, so none recomputes a figure another
/// has. Adding a format is one file conforming to this and one entry in `ResultsWriter.builtIn`,
/// or, from another package, `ResultsWriter.register` (lists of the types themselves, hence
/// `SendableMetatype`).
public protocol OutputFormat: SendableMetatype {
    /// The files of this format, paths relative to the output directory (folders are created).
    static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output]
}

extension ResultsJSON: OutputFormat {
    public static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.run))]
    }
}

extension ResultsCSV: OutputFormat {
    public static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: "results.csv", contents: encode(input.run, estimates: input.analysis.estimates))]
    }
}

extension MarkdownReport: OutputFormat {
    public static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        [
            ResultsWriter.Output(
                path: "report.md",
                contents: render(
                    input.run, cases: input.cases, families: input.families,
                    strides: input.strides, charts: input.charts,
                    verdicts: input.analysis.verdicts, allColumns: input.allColumns))
        ]
    }
}

extension ReportChart: OutputFormat {
    public static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        input.charts.map { ResultsWriter.Output(path: $0.file, contents: $0.svg) }
    }
}

extension JMHExport: OutputFormat {
    public static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.run, cases: input.cases))]
    }
}

extension SmallerIsBetterExport: OutputFormat {
    public static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.cases))]
    }
}

extension GoogleBenchmarkExport: OutputFormat {
    public static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.run, cases: input.cases))]
    }
}

extension InfluxLineProtocolExport: OutputFormat {
    public static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: encode(input.run, cases: input.cases))]
    }
}

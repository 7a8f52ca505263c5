/// One kind of file a run's outputs hold (results.json, report.md, the charts, an export). Every
/// format reads the same `ReportInput`, built once per write, so none recomputes a figure another
/// has. Adding a format is one file conforming to this and one entry in `ResultsWriter.formats`
/// (a global list of the types themselves, hence `SendableMetatype`).
protocol OutputFormat: SendableMetatype {
    /// The files of this format, paths relative to the output directory.
    static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output]
}

extension ResultsJSON: OutputFormat {
    static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.run))]
    }
}

extension ResultsCSV: OutputFormat {
    static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: "results.csv", contents: encode(input.run, estimates: input.analysis.estimates))]
    }
}

extension MarkdownReport: OutputFormat {
    static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: "report.md", contents: render(input.run, cases: input.cases, families: input.families,
                                                                  strides: input.strides, charts: input.charts,
                                                                  verdicts: input.analysis.verdicts))]
    }
}

extension ReportChart: OutputFormat {
    static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        input.charts.map { ResultsWriter.Output(path: $0.file, contents: $0.svg) }
    }
}

extension JMHExport: OutputFormat {
    static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.run, cases: input.cases))]
    }
}

extension SmallerIsBetterExport: OutputFormat {
    static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.cases))]
    }
}

extension GoogleBenchmarkExport: OutputFormat {
    static func outputs(of input: ReportInput) throws -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: try encode(input.run, cases: input.cases))]
    }
}

extension InfluxLineProtocolExport: OutputFormat {
    static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
        [ResultsWriter.Output(path: fileName, contents: encode(input.run, cases: input.cases))]
    }
}

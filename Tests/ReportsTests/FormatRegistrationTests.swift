@testable import Reports
import Results
import RuntimeKit
import Testing

/// Another package's output formats join `ResultsWriter.formats` through `register`. Only
/// refusals and rendering here: a registration that succeeds would add a format to every other
/// test of this process (Examples/ registers one for real).
@Suite("output formats: another package's")
struct FormatRegistrationTests {
    /// One line per case: what a format of another package can read from the input.
    enum CaseLines: OutputFormat {
        static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
            let lines = input.run.cases.map {
                "\($0.benchmarkCase.id)\t\(input.analysis.estimates[$0.benchmarkCase.id]?.value ?? .nan)"
            }
            return [ResultsWriter.Output(path: "extra/cases.tsv", contents: lines.joined(separator: "\n"))]
        }
    }

    /// Writes report.md too: it would replace the built-in one.
    enum AnotherReport: OutputFormat {
        static func outputs(of input: ReportInput) -> [ResultsWriter.Output] {
            [ResultsWriter.Output(path: "report.md", contents: "mine")]
        }
    }

    @Test("a format registered twice is refused and the registry stays as it was")
    func registeredTwice() {
        let before = ResultsWriter.formats.count
        #expect(throws: RegistrationError.registeredTwice(type: "\(CaseLines.self)")) {
            try ResultsWriter.register([CaseLines.self, CaseLines.self])
        }
        #expect(throws: RegistrationError.registeredTwice(type: "\(ResultsCSV.self)")) {
            try ResultsWriter.register([ResultsCSV.self])
        }
        #expect(ResultsWriter.formats.count == before)
    }

    @Test(
        """
        a format's outputs are rendered after the built-in ones from the same analysis; \
        a second writer of one path is refused, naming both
        """)
    func renderedBesideBuiltIns() throws {
        let input = ReportInput(RunAnalysis(Fixture.run))
        let outputs = try ResultsWriter.render(ResultsWriter.formats + [CaseLines.self], input)
        let lines = try #require(outputs.last { $0.path == "extra/cases.tsv" })
        #expect(lines.contents.split(separator: "\n").count == Fixture.run.cases.count)
        #expect(outputs.dropLast().map(\.path) == (try ResultsWriter.render(ResultsWriter.formats, input)).map(\.path))
        #expect {
            try ResultsWriter.render(ResultsWriter.formats + [AnotherReport.self], input)
        } throws: { error in
            "\(error)" == "\(MarkdownReport.self) and \(AnotherReport.self) both write report.md"
        }
    }
}

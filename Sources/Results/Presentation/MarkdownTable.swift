/// A GitHub-flavoured Markdown table: a header, an alignment row, and one line per row, every
/// cell escaped so a `|` or a line break inside a reason cannot break the table.
public struct MarkdownTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public let header: [String]
    public let alignments: [Alignment]
    public var rows: [[String]] = []

    public init(_ columns: [(String, Alignment)]) {
        header = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    public var lines: [String] {
        [Self.line(header), "|" + alignments.map { $0 == .right ? " ---: |" : " --- |" }.joined()] + rows.map(Self.line)
    }

    public static func line(_ cells: [String]) -> String {
        "| " + cells.map(escape).joined(separator: " | ") + " |"
    }

    public static func escape(_ cell: String) -> String {
        cell.replacing("|", with: "\\|").replacing("\r", with: " ").replacing("\n", with: " ")
    }
}

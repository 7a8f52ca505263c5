/// A GitHub-flavoured Markdown table: a header, an alignment row, and one line per row, every
/// cell escaped so a `|` or a line break inside a reason cannot break the table.
struct MarkdownTable {
    enum Alignment { case left, right }

    let header: [String]
    let alignments: [Alignment]
    var rows: [[String]] = []

    init(_ columns: [(String, Alignment)]) {
        header = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    var lines: [String] {
        [Self.line(header), "|" + alignments.map { $0 == .right ? " ---: |" : " --- |" }.joined()] + rows.map(Self.line)
    }

    static func line(_ cells: [String]) -> String {
        "| " + cells.map(escape).joined(separator: " | ") + " |"
    }

    static func escape(_ cell: String) -> String {
        cell.replacing("|", with: "\\|").replacing("\r", with: " ").replacing("\n", with: " ")
    }
}

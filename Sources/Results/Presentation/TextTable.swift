/// A table for the terminal: columns two spaces apart, each as wide as its widest cell, numbers
/// right-aligned; the last column is not padded when it is left-aligned, so a long reason does
/// not drag trailing spaces. The terminal's counterpart of `MarkdownTable`.
public struct TextTable: Sendable {
    public let header: [String]
    public let rightAligned: [Bool]
    public var rows: [[String]] = []

    /// - Parameter columns: each column's heading and whether its cells are right-aligned.
    public init(_ columns: [(String, rightAligned: Bool)]) {
        header = columns.map(\.0)
        rightAligned = columns.map(\.rightAligned)
    }

    /// `rows` whose first row is the header; `rightAligned` says which columns, by index.
    public init(rows: [[String]], rightAligned: (Int) -> Bool) {
        header = rows.first ?? []
        self.rightAligned = header.indices.map(rightAligned)
        self.rows = Array(rows.dropFirst())
    }

    public var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max()! }
        return all.map { row in
            row.indices.map { column in
                column == row.count - 1 && !rightAligned[column]
                    ? row[column] : Self.pad(row[column], to: widths[column], rightAligned: rightAligned[column])
            }.joined(separator: "  ")
        }
    }

    /// `text` filled with spaces to `width` characters, on the left when right-aligned.
    public static func pad(_ text: String, to width: Int, rightAligned: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return rightAligned ? fill + text : text + fill
    }
}

import Results
import Testing

/// The terminal's table: columns as wide as their widest cell, two spaces apart, numbers on the
/// right, and no trailing spaces after a left-aligned last column.
@Suite struct TextTableTests {
    @Test func columnsAlignAndTheLastLeftColumnIsNotPadded() {
        var table = TextTable([("case", false), ("ns/op", true), ("status", false)])
        table.rows = [["spin/none", "12.5", "ok"], ["a", "1000", "failed: crashed"]]
        #expect(
            table.lines == [
                "case       ns/op  status",
                "spin/none   12.5  ok",
                "a           1000  failed: crashed",
            ])
    }

    @Test func rowsWithTheirHeaderFirst() {
        let table = TextTable(rows: [["backend", "total"], ["fifo-dispatch", "7"]]) { $0 == 1 }
        #expect(table.lines == ["backend        total", "fifo-dispatch      7"])
        #expect(TextTable.pad("ab", to: 4) == "ab  " && TextTable.pad("ab", to: 4, rightAligned: true) == "  ab")
    }
}

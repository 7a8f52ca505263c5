import Harness

/// The end-of-run table: median ns per operation with its 95% interval, per case.
enum SummaryTable {
    static func print(_ results: [CaseResult]) {
        let header = ["case", "median ns/op", "95% CI", "processes", "status"]
        let rows = results.map { result -> [String] in
            guard let stats = result.statistics else { return [result.benchmarkCase.id, "—", "—", "0", result.status] }
            return [result.benchmarkCase.id, format(stats.median),
                    "\(format(stats.medianInterval.lower))–\(format(stats.medianInterval.upper))",
                    "\(result.records.count)", result.status]
        }
        printColumns([header] + rows) { $0 == 1 || $0 == 2 }
    }

    /// Prints `rows` (the first is the header) in columns two spaces apart, each as wide as its
    /// widest cell; the last column is not padded.
    static func printColumns(_ rows: [[String]], rightAligned: (Int) -> Bool) {
        guard let first = rows.first else { return }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max()! }
        for row in rows {
            let cells = row.indices.map { column in
                column == row.count - 1 && !rightAligned(column)
                    ? row[column] : row[column].padding(to: widths[column], rightAligned: rightAligned(column))
            }
            Swift.print(cells.joined(separator: "  "))
        }
    }

    /// Three significant figures at most: ns figures are not known better than that.
    static func format(_ value: Double) -> String {
        if value >= 100 { return "\(Int(value.rounded()))" }
        if value >= 10 { return "\((value * 10).rounded() / 10)" }
        return "\((value * 100).rounded() / 100)"
    }
}

extension String {
    func padding(to width: Int, rightAligned: Bool) -> String {
        let fill = String(repeating: " ", count: Swift.max(0, width - count))
        return rightAligned ? fill + self : self + fill
    }
}

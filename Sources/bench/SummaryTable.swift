import Harness

/// The end-of-run table: each case's figure (ns per operation) and the interval a repeat run's
/// figure should fall in.
enum SummaryTable {
    static func print(_ results: [CaseResult]) {
        let estimates = RunEstimates(results)
        let header = ["case", "ns/op", "a repeat run", "processes", "status"]
        let rows = results.map { result -> [String] in
            guard let estimate = estimates[result.benchmarkCase.id] else { return [result.benchmarkCase.id, "—", "—", "0", result.status] }
            let interval = estimate.repeatInterval
            return [result.benchmarkCase.id, format(estimate.value),
                    interval.upper.isFinite ? "\(format(interval.lower))–\(format(interval.upper))" : "unbounded",
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
        guard value.isFinite else { return "\(value)" }
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

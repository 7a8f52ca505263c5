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
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        for row in [header] + rows {
            Swift.print(row.indices.map { row[$0].padding(to: widths[$0], rightAligned: $0 == 1 || $0 == 2) }.joined(separator: "  "))
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

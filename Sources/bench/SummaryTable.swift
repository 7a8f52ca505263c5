import Harness
import Results

/// The end of a run on the terminal: for a small run, each case's figure (ns per operation) and
/// the interval a repeat run's figure should fall in; for a large one, counts and the cases that
/// failed, since hundreds of rows would bury the pointer to report.md, which has them all.
enum SummaryTable {
    /// Above this many cases the terminal gets counts, not a row per case.
    static let largestTable = 30

    static func print(_ results: [CaseResult], estimates: RunEstimates) {
        guard results.count <= largestTable else { return printCounts(results) }
        let header = ["case", "ns/op", "a repeat run", "processes", "status"]
        let rows = results.map { result -> [String] in
            guard let estimate = estimates[result.benchmarkCase.id] else { return [result.benchmarkCase.id, "—", "—", "0", result.status] }
            let interval = estimate.repeatInterval
            return [result.benchmarkCase.id, Figures.value(estimate.value),
                    Figures.interval(interval),
                    "\(result.records.count)", result.status]
        }
        printColumns([header] + rows) { $0 == 1 || $0 == 2 }
    }

    static func printCounts(_ results: [CaseResult]) {
        let notApplicable = results.filter { $0.notApplicable != nil }
        let failing = results.filter { $0.notApplicable == nil && !$0.failures.isEmpty }
        let measured = results.filter { $0.notApplicable == nil && !$0.records.isEmpty }
        Swift.print("\(results.count) cases: \(measured.count) measured, \(failing.count) with failures, \(notApplicable.count) not applicable here. "
                    + "Every figure, its interval and the reasons are in report.md (a table per family) and results.csv.")
        for result in failing { Swift.print("  \(result.benchmarkCase.id): \(result.status)") }
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
}

extension String {
    func padding(to width: Int, rightAligned: Bool) -> String {
        let fill = String(repeating: " ", count: Swift.max(0, width - count))
        return rightAligned ? fill + self : self + fill
    }
}

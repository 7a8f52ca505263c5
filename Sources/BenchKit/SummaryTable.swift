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
        var table = TextTable([
            ("case", false), ("ns/op", true), ("a repeat run", true), ("processes", false), ("status", false),
        ])
        table.rows = results.map { result -> [String] in
            guard let estimate = estimates[result.benchmarkCase.id] else {
                return [result.benchmarkCase.id, "—", "—", "0", result.status]
            }
            let interval = estimate.repeatInterval
            return [
                result.benchmarkCase.id, Figures.value(estimate.value),
                Figures.interval(interval),
                "\(result.records.count)", result.status,
            ]
        }
        table.lines.forEach { Swift.print($0) }
    }

    static func printCounts(_ results: [CaseResult]) {
        let notApplicable = results.filter { $0.notApplicable != nil }
        let failing = results.filter { $0.notApplicable == nil && !$0.failures.isEmpty }
        let measured = results.filter { $0.notApplicable == nil && !$0.records.isEmpty }
        Swift.print(
            "\(results.count) cases: \(measured.count) measured, \(failing.count) with failures, "
                + "\(notApplicable.count) not applicable here. Every figure, "
                + "its interval and the reasons are in report.md (a table per family) and results.csv.")
        for result in failing { Swift.print("  \(result.benchmarkCase.id): \(result.status)") }
    }
}

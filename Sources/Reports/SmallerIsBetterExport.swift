import FoundationEssentials
import Results

/// smaller-is-better.json: one entry per case with samples, `{name, unit, value, range, extra}`,
/// the `customSmallerIsBetter` input of github-action-benchmark and similar CI dashboards, which
/// chart each name over commits. `value` is the case's figure in ns per operation, `range` half the
/// width of its repeat interval, `extra` the interval itself and how many processes and samples it
/// rests on.
enum SmallerIsBetterExport {
    static let fileName = "smaller-is-better.json"

    struct Entry: Encodable {
        let name: String
        let unit: String
        let value: Double
        let range: String
        let extra: String
    }

    static func encode(_ cases: [MeasuredCase]) throws -> String {
        let entries = cases.compactMap { measured -> Entry? in
            guard let estimate = measured.estimate else { return nil }
            let interval = estimate.repeatInterval
            let samples = measured.result.records.reduce(0) { $0 + $1.nanosecondsPerOperation.count }
            return Entry(
                name: measured.benchmarkCase.id, unit: "ns/op", value: estimate.value,
                range: interval.upper.isFinite
                    ? "± \(Figures.value((interval.upper - interval.lower) / 2))" : "unbounded (one process)",
                extra: "95% of repeat runs within \(Figures.interval(interval)) ns; "
                    + "\(estimate.processes) processes, \(samples) samples")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n"
    }
}

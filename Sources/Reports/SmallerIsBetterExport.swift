import FoundationEssentials
import Harness

/// smaller-is-better.json: one entry per case with samples, `{name, unit, value, range, extra}`,
/// the `customSmallerIsBetter` input of github-action-benchmark and similar CI dashboards, which
/// chart each name over commits. `value` is the median ns per operation, `range` half the width
/// of its 95% interval, `extra` the interval itself and how many processes and samples it rests on.
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
            guard let statistics = measured.statistics else { return nil }
            let interval = statistics.medianInterval
            return Entry(name: measured.benchmarkCase.id, unit: "ns/op", value: statistics.median,
                         range: "± \(Figures.value((interval.upper - interval.lower) / 2))",
                         extra: "95% CI of the median \(Figures.interval(interval.lower, interval.upper)) ns; "
                             + "\(measured.result.records.count) processes, \(statistics.count) samples")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n"
    }
}

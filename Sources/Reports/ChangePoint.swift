import FoundationEssentials
import Results

/// A change in one trend of a series, as Apache Otava found it: the first run after the change,
/// the means of the runs on either side (between the neighbouring change points), and Otava's
/// p-value for the split (its t-test; the smaller, the surer).
public struct ChangePoint: Sendable, Equatable {
    /// `RunHistory.Trend.name`.
    public let trend: String
    /// The first run (0-based, oldest first) after the change.
    public let run: Int
    public let meanBefore: Double
    public let meanAfter: Double
    public let pValue: Double

    /// after / before - 1: +0.10 is 10% higher (slower, for a time).
    public var change: Double { meanAfter / meanBefore - 1 }

    /// The change points of test `test` in the JSON `otava analyze --output json` prints:
    /// `{"TEST": [{"time": …, "attributes": {…}, "changes": [{"metric", "index", "mean_before",
    /// "mean_after", "pvalue", …}]}]}`, numbers as strings. Each must name a trend of `trends` and
    /// a run between the second and the last of `runs`.
    public static func parse(_ json: String, test: String, trends: Set<String>, runs: Int) throws(UnreadableOutput)
        -> [ChangePoint]
    {
        struct Group: Decodable { let changes: [Change] }
        struct Change: Decodable {
            let metric: String
            let index: Int
            let mean_before: String
            let mean_after: String
            let pvalue: String
        }
        let groups: [String: [Group]]
        do {
            groups = try JSONDecoder().decode([String: [Group]].self, from: Data(json.utf8))
        } catch {
            throw UnreadableOutput(reason: "not Otava's JSON: \(error)")
        }
        guard let found = groups[test] else { throw UnreadableOutput(reason: "no entry for test \(test)") }
        return try found.flatMap(\.changes).map { change throws(UnreadableOutput) in
            guard trends.contains(change.metric) else {
                throw UnreadableOutput(reason: "a change in \(change.metric), which is not a trend of the series")
            }
            guard (1..<runs).contains(change.index) else {
                throw UnreadableOutput(reason: "a change at run \(change.index) of \(runs)")
            }
            guard let before = Double(change.mean_before), let after = Double(change.mean_after),
                let p = Double(change.pvalue), before > 0
            else {
                throw UnreadableOutput(reason: "a change in \(change.metric) whose means or p-value are not numbers")
            }
            return ChangePoint(trend: change.metric, run: change.index, meanBefore: before, meanAfter: after, pValue: p)
        }.sorted { ($0.run, $0.trend) < ($1.run, $1.trend) }
    }

    public struct UnreadableOutput: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "Otava's output could not be read: \(reason)" }
    }
}

import Gate
import Results

/// A series of runs of one suite on one machine, oldest first (by the time each records), with
/// each case's figures per run: what `bench history` charts and hands to Apache Otava. Runs of
/// different machines never share a series: `split` gives each machine its own, so a faster CPU
/// is never read as a change.
public struct RunHistory: Sendable {
    /// One run of the series.
    public struct Run: Sendable {
        public let file: String
        public let results: RunResults
        public let started: RunResults.Instant
        let estimates: RunEstimates

        /// The commit the run measured, with a "+" when bench was built with uncommitted changes.
        public var commit: String {
            results.environment.gitCommit + (results.environment.uncommittedChanges == true ? "+" : "")
        }
    }

    /// What a series follows for each case: the family's figure (time, or the family's own),
    /// or a counter per operation.
    public enum Metric: Sendable, Hashable, CustomStringConvertible {
        case figure
        case counter(String)

        public var description: String {
            switch self {
            case .figure: "figure"
            case .counter(let name): name
            }
        }
    }

    /// One case and metric through the series: a value per run, nil where the run did not measure it.
    public struct Trend: Sendable {
        public let caseID: String
        public let metric: Metric
        /// What the values are, e.g. "ns/op", "task-clock per op".
        public let heading: String
        public let values: [Double?]
        /// Each run's repeat interval for the figure; nil for counters (their spread is not estimated).
        public let intervals: [RepeatInterval?]

        /// Measured in every run: only such a trend can be handed to Otava, which reads a number in every row.
        public var isComplete: Bool { values.allSatisfy { $0 != nil } }

        /// The name the trend has in Otava's input: the case id, and the counter after a space.
        public var name: String {
            switch metric {
            case .figure: caseID
            case .counter(let counter): "\(caseID) \(counter)"
            }
        }
    }

    /// Why files cannot make a series.
    public enum Refusal: Error, CustomStringConvertible, Equatable {
        case differentSuites(first: String, firstSuite: Suite, other: String, otherSuite: Suite)
        case noStartTime(file: String)

        public var description: String {
            switch self {
            case .differentSuites(let first, let firstSuite, let other, let otherSuite):
                "\(first) ran the \(firstSuite) suite and \(other) the \(otherSuite) suite: "
                    + "a history follows one suite's cases; give the runs of one suite"
            case .noStartTime(let file):
                "\(file) does not record when its run started (it was written by an older bench), "
                    + "so it has no place in a series"
            }
        }
    }

    /// "M1", "M2", … in the order each machine's first file was given.
    public let label: String
    public let fingerprint: MachineFingerprint
    /// Oldest first; runs that started in the same second keep the order they were given in.
    public let runs: [Run]
    /// Every case and metric of any run, in the order cases first appear.
    public let trends: [Trend]

    /// The series of `files` (file, run): one per machine, in the order each machine first
    /// appears. Every run must be of one suite and record when it started.
    public static func split(_ files: [(file: String, run: RunResults)], counters: [String] = []) throws(Refusal)
        -> [RunHistory]
    {
        guard let first = files.first else { return [] }
        for other in files where other.run.suite != first.run.suite {
            throw .differentSuites(
                first: first.file, firstSuite: first.run.suite, other: other.file, otherSuite: other.run.suite)
        }
        var groups: [(fingerprint: MachineFingerprint, runs: [Run])] = []
        for (file, results) in files {
            guard let started = results.started else { throw .noStartTime(file: file) }
            let run = Run(file: file, results: results, started: started, estimates: RunEstimates(results.cases))
            let fingerprint = MachineFingerprint(results.environment)
            if let index = groups.firstIndex(where: { $0.fingerprint == fingerprint }) {
                groups[index].runs.append(run)
            } else {
                groups.append((fingerprint, [run]))
            }
        }
        return groups.enumerated().map { index, group in
            // A stable sort: runs of one second keep the order they were given in.
            let ordered = group.runs.enumerated().sorted {
                ($0.element.started, $0.offset) < ($1.element.started, $1.offset)
            }.map(\.element)
            return RunHistory(label: "M\(index + 1)", fingerprint: group.fingerprint, runs: ordered, counters: counters)
        }
    }

    init(label: String, fingerprint: MachineFingerprint, runs: [Run], counters: [String]) {
        self.label = label
        self.fingerprint = fingerprint
        self.runs = runs
        var order: [String] = []
        var measured: [String: [MeasuredCase?]] = [:]
        for (position, run) in runs.enumerated() {
            for one in MeasuredCase.all(run.results, estimates: run.estimates) {
                let id = one.benchmarkCase.id
                if measured[id] == nil {
                    order.append(id)
                    measured[id] = Array(repeating: nil, count: runs.count)
                }
                measured[id]![position] = one
            }
        }
        trends = order.flatMap { id -> [Trend] in
            let cases = measured[id]!
            let heading = cases.lazy.compactMap { $0?.ranking.heading }.first ?? Ranking.time.heading
            let figure = Trend(
                caseID: id, metric: .figure, heading: heading, values: cases.map { $0?.ranked?.value },
                intervals: cases.map { $0?.ranked?.repeatInterval })
            let perCounter = counters.map { name in
                Trend(
                    caseID: id, metric: .counter(name), heading: "\(name) per op",
                    values: cases.map { $0?.counter(name) },
                    intervals: cases.map { _ in nil })
            }
            return ([figure] + perCounter).filter { $0.values.contains { $0 != nil } }
        }
    }
}

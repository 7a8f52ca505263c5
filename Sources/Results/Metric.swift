/// One metric a run can report, described once where it is measured (a counter source, the
/// sampler) and carried in results.json, so that the gate, the report and the exports read its
/// unit, kind, direction and heading instead of guessing them from its name.
public struct Metric: Sendable, Codable, Hashable {
    /// Which way is better. Every counter and time is lower-is-better; a workload figure may not be.
    public enum Polarity: String, Sendable, Codable {
        case lowerIsBetter = "lower"
        case higherIsBetter = "higher"
    }

    /// The name records key their values by ("task-clock", "jemalloc.arena-requests").
    public let name: String
    public let unit: MetricUnit
    public let kind: MetricKind
    public let polarity: Polarity
    /// The report's column heading, per operation ("CPU ns/op").
    public let heading: String
    /// Whether the report's family tables give it a column where it was measured; the rest are in
    /// results.csv, the exports and the gate.
    public let tableColumn: Bool
    /// What a reader could misread about it, printed under each report table that shows it; nil
    /// when the heading says enough.
    public let note: String?

    public init(
        _ name: String, unit: MetricUnit, kind: MetricKind, polarity: Polarity = .lowerIsBetter,
        heading: String, tableColumn: Bool = false, note: String? = nil
    ) {
        self.name = name
        self.unit = unit
        self.kind = kind
        self.polarity = polarity
        self.heading = heading
        self.tableColumn = tableColumn
        self.note = note
    }

    /// The samples' own metric: each process's ns per operation (`CaseRecord.processNanoseconds`).
    public static let nanosecondsPerOperation = Metric("ns-per-op", unit: .nanoseconds, kind: .time, heading: "ns/op")
}

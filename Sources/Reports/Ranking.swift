/// What a family's contenders are ranked by in the report's tables and its "what should I use?":
/// time per operation, unless the family exists to measure something else.
struct Ranking: Sendable {
    enum Figure: Sendable, Equatable {
        /// ns per operation.
        case time
        /// A figure the workload measures itself (`CaseRecord.workloadMetrics`), by name.
        case workloadFigure(String)
    }

    let figure: Figure
    /// The table's heading for the figure, e.g. "ns/op".
    let heading: String
    /// What "first" means in the family's words: "fastest", "smallest".
    let best: String
    /// And what "ahead" means: "faster", "smaller".
    let better: String

    static let time = Ranking(figure: .time, heading: "ns/op", best: "fastest", better: "faster")

    /// The families ranked by something other than time. footprint measures memory per waiting
    /// unit of work; its time per operation is the cost of setting the units up, which no one
    /// asking "which holds work more cheaply?" means.
    static let byWorkload: [String: Ranking] = [
        "footprint": Ranking(figure: .workloadFigure("footprint.resident_bytes_per_unit"),
                             heading: "resident bytes/unit", best: "smallest", better: "smaller"),
    ]

    static func of(_ workload: String) -> Ranking { byWorkload[workload] ?? .time }
}

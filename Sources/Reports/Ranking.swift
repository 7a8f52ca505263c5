import CaseCatalogue
import Results

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

    /// One process's value of the figure: its time (`processNanoseconds`), or the workload's figure.
    func value(of record: CaseRecord) -> Double? {
        switch figure {
        case .time: record.processNanoseconds
        case .workloadFigure(let name): record.workloadMetrics?[name]?.value
        }
    }

    /// The figure as the report writes it: a time in its unit, anything else as a number.
    func shown(_ value: Double) -> String {
        figure == .time ? Figures.nanoseconds(value) : Figures.value(value)
    }

    static let time = Ranking(figure: .time, heading: "ns/op", best: "fastest", better: "faster")

    /// The families ranked by one of their own figures. footprint measures memory per waiting unit
    /// of work; its time per operation is the cost of setting the units up, which no one asking
    /// "which holds work more cheaply?" means.
    static let figureByWorkload = [WorkloadName.footprint.rawValue: FigureName.residentBytesPerUnit.rawValue]

    /// How `workload`'s family ranks, its figure's heading and words from the figure's description
    /// in the run (`Workload.figures`); by time for a family without a figure of its own.
    static func of(_ workload: String, in catalogue: MetricCatalogue) -> Ranking {
        guard let name = figureByWorkload[workload] else { return .time }
        guard let metric = catalogue[name] else {
            return Ranking(figure: .workloadFigure(name), heading: name, best: "first", better: "ahead")
        }
        let (best, better) =
            switch (metric.polarity, metric.unit) {
            case (.lowerIsBetter, .nanoseconds): ("fastest", "faster")
            case (.lowerIsBetter, _): ("smallest", "smaller")
            case (.higherIsBetter, _): ("largest", "larger")
            }
        return Ranking(figure: .workloadFigure(name), heading: metric.heading, best: best, better: better)
    }
}

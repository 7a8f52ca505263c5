import Claims
import Results

/// The contenders of one parameter set, best first by their family's figure (`Ranking`), and
/// whether the best is clearly so: its comparison interval lies wholly below the runner-up's (the rule
/// the claims use, `Faster`). Otherwise it is a tie, however far apart the figures.
struct Standing {
    /// The cases that have the figure, ascending.
    let ranked: [(measured: MeasuredCase, estimate: CaseEstimate)]

    init(_ cases: [MeasuredCase]) {
        ranked = cases.compactMap { measured in measured.ranked.map { (measured, $0) } }
            .sorted { $0.estimate.value < $1.estimate.value }
    }

    var best: CaseEstimate? { ranked.first?.estimate }

    /// True when there are two contenders or more and the best's interval is below every other's.
    var isClear: Bool {
        ranked.count >= 2 && Faster(ranked[0].estimate, ranked[1].estimate) == .first
    }

    /// The runner-up's figure over the best's (≥ 1), with two contenders or more.
    var margin: Double? {
        ranked.count >= 2 ? ranked[1].estimate.value / ranked[0].estimate.value : nil
    }

    /// Whether `estimate` is not clearly behind the best: a tie, or a case whose modes order the
    /// two either way.
    func tiesWithBest(_ estimate: CaseEstimate) -> Bool {
        guard let best else { return false }
        return !Faster(best, estimate).isClear
    }

    /// ", a tie", ", depends on the mode" or nothing (clearly behind) after a ratio to the best.
    func againstBest(_ estimate: CaseEstimate) -> String {
        guard let best else { return "" }
        switch Faster(best, estimate) {
        case .first, .second: return ""
        case .neither: return ", a tie"
        case .dependsOnMode: return ", depends on the mode"
        }
    }
}

import Claims
import Results

/// The contenders of one parameter set, best first by their family's figure (`Ranking`), and
/// whether the best is clearly so: clearly ahead of the runner-up by more than `closeEnough`, by
/// the rule the claims use (`Faster`) with the best made that much slower (`behind`). Otherwise
/// the leaders lead together, however far apart their figures.
struct Standing {
    /// The cases that have the figure, ascending.
    let ranked: [(measured: MeasuredCase, estimate: CaseEstimate)]

    init(_ cases: [MeasuredCase]) {
        ranked = cases.compactMap { measured in measured.ranked.map { (measured, $0) } }
            .sorted { $0.estimate.value < $1.estimate.value }
    }

    var best: CaseEstimate? { ranked.first?.estimate }

    /// True when there are two contenders or more and the best is clearly ahead of every other,
    /// by more than `closeEnough`.
    var isClear: Bool {
        ranked.count >= 2 && !leadsWithBest(ranked[1].estimate)
    }

    /// The runner-up's figure over the best's (≥ 1), with two contenders or more.
    var margin: Double? {
        ranked.count >= 2 ? ranked[1].estimate.value / ranked[0].estimate.value : nil
    }

    /// Whether `estimate` leads with the best (`leads(_:withBest:)`).
    func leadsWithBest(_ estimate: CaseEstimate) -> Bool {
        best.map { Self.leads(estimate, withBest: $0) } ?? false
    }

    /// Whether a contender leads with the best: not clearly more than `closeEnough` behind it.
    static func leads(_ estimate: CaseEstimate, withBest best: CaseEstimate) -> Bool {
        place(estimate, withBest: best) != .behind
    }

    /// Where a contender stands against the best, as a repeat run is checked against it
    /// (`Agreement`; the first screen names `leads` and `undecided` as one group, each with its
    /// ratio): only `leads` and `behind` are statements; a repeat that
    /// moves a contender between `leads` and `undecided`, or between `undecided` and `behind`,
    /// contradicts nothing, while one that moves it from `leads` to `behind` does.
    enum Place: Equatable, Sendable {
        /// Its figure within `closeEnough` of the best's: no reason to choose between them.
        case leads
        /// More than `closeEnough` behind by its figure, but not clearly: the processes spread
        /// wider than that. The answers' round adds processes to exactly these (`UndecidedAnswers`).
        case undecided
        /// One of its modes is faster than the best, another slower (`Faster.dependsOnMode`).
        case dependsOnMode
        /// Clearly more than `closeEnough` behind (`behind(_:_:)`).
        case behind
    }

    static func place(_ estimate: CaseEstimate, withBest best: CaseEstimate) -> Place {
        if estimate.value <= best.value * (1 + closeEnough) { return .leads }
        switch behind(estimate, best) {
        case .first: return .behind
        // Its figure more than `closeEnough` behind, yet faster than the best mode by mode: its
        // modes fall either side (fifo-dispatch's task from outside, 48.9 ns in 3 of 19 processes
        // and 161 in 16, against work-stealing's 137).
        case .second, .dependsOnMode: return .dependsOnMode
        case .neither: return Faster(best, estimate) == .dependsOnMode ? .dependsOnMode : .undecided
        }
    }

    /// Whether `best` is faster than `estimate` by more than `closeEnough`: `Faster` on the best
    /// made that much slower. Asking only whether it is faster at all, and whether the medians lie
    /// more than 5% apart, called a contender "clearly" behind at 5.1% whenever the processes sat
    /// tight, on evidence a repeat run rarely gives again (the shared-executor hop: 30.4 against
    /// 32.0 ns, then a tie when two of nine processes ran slow). Shifting the best first asks for
    /// evidence about the difference that matters, so "clearly" is said where it would hold.
    static func behind(_ estimate: CaseEstimate, _ best: CaseEstimate) -> Faster {
        Faster(best.scaled(by: 1 + closeEnough), estimate)
    }

    /// Contenders within this fraction of the best lead with it, however clearly they differ: a
    /// difference of a few percent is no reason to choose one, and it flips between "clearly" and
    /// "a tie" from one run to the next. The report's questions and "what should I use?" both
    /// count it; the tables' "× best" column gives the ratio as measured.
    static let closeEnough = 0.05

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

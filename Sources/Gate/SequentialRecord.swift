import Results

/// What the looks of a sequential `bench ab` saw (`SequentialRule`): every row's p-value at each
/// look its case had, and where each case stopped. The final comparison tests each row on
/// `pValue(caseID:metric:)`, the smallest of its looks' p-values each divided by that look's
/// share of α, so one Holm correction over the table keeps its false alarms at α.
public struct SequentialRecord: Sendable {
    public let rule: SequentialRule
    /// Case → metric → the p-value at each of the case's looks, in order.
    private var pValues: [String: [String: [Double]]] = [:]
    /// Case → the pairs it had at its last recorded look.
    private var pairs: [String: Int] = [:]
    /// Case → why it stopped before the run ended; a case not here was open at the end.
    public private(set) var settled: [String: String] = [:]
    /// Why pairing stopped ("every case settled", "the budget ran out ..."), once it has.
    public var ending: String?

    public init(rule: SequentialRule) {
        self.rule = rule
    }

    /// Records a look: `comparison` of the pairs so far, `pairs` per case. A case whose pairs did
    /// not change since its last look (it did not run this round) is not looked at again: that
    /// would spend α twice on the same data. Returns each case's state.
    @discardableResult
    public mutating func record(_ comparison: Comparison, pairs: [String: Int]) -> [String: SequentialRule.CaseState] {
        let states = rule.states(comparison)
        for row in comparison.rows {
            guard let estimate = row.estimate, settled[row.caseID] == nil, let count = pairs[row.caseID],
                self.pairs[row.caseID] != count
            else { continue }
            pValues[row.caseID, default: [:]][row.metric, default: []].append(estimate.pValue)
        }
        for (caseID, count) in pairs where settled[caseID] == nil && self.pairs[caseID] != count {
            self.pairs[caseID] = count
            if case .settled(let why) = states[caseID] { settled[caseID] = why }
        }
        return states
    }

    /// Cases looked at, at least once.
    public var cases: Int { pValues.count }

    /// One line for a report: the looks, how many cases stopped early, and how α was spent.
    public var summary: String {
        let interim = Figures.value(rule.share(last: false) * 100), final = Figures.value(rule.share(last: true) * 100)
        return
            "Pairs were decided as they came: looks at \(rule.looks.map(String.init).joined(separator: ", ")) pairs; "
            + "\(settled.count) of \(cases) cases settled early, \(cases - settled.count) open to the end"
            + (ending.map { " (\($0))" } ?? "") + ". Each adj. p counts every look its case had: "
            + "an interim look tests at \(interim)% of α, a case's last look at \(final)% (SequentialRule)."
    }

    /// The row's p-value for the final Holm correction: over the case's looks, the least of
    /// p / share, capped at 1. A case that stopped early had only interim looks; a case still open
    /// when the run ended had its last look at the final share. Nil for a row never tested.
    public func pValue(caseID: String, metric: String) -> Double? {
        guard let history = pValues[caseID]?[metric], !history.isEmpty else { return nil }
        let open = settled[caseID] == nil
        let interim = rule.share(last: false), final = rule.share(last: true)
        let scaled = history.enumerated().map { look, p in
            p / (open && look == history.count - 1 ? final : interim)
        }
        return min(1, scaled.min()!)
    }
}

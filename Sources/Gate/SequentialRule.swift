/// How `bench ab --budget` decides how many pairs each case gets: it looks at the comparison after
/// each round of pairs, stops pairing a case once more pairs cannot change its verdict, and keeps
/// each row's chance of a false alarm at α however many looks the case had (Sources/Gate/README.md,
/// "Pairs decided as they come").
///
/// The looks are fixed before anything runs: pair counts from the first look to the most a case
/// gets, each about 1.5 times the one before (6, 10, 16, 24, 36, 40). α is spent as Haybittle and
/// Peto did: the interim looks share 10% of it, and a case's last look tests at the other 90%. A
/// row fails only if some look's p-value is below that look's share of α, and the shares add up
/// to at most α (Bonferroni's inequality), so this holds whatever the dependence between looks:
/// no normal approximation of the trimmed t statistics is needed, as the Pocock and O'Brien–Fleming
/// boundaries need. Interim looks stop a case early for a change only when it is overwhelming (an
/// allocation more per task); an ordinary 10% change is found at the last look, with nearly all of
/// α. The time saved comes from the other way to stop: a case whose intervals already lie within
/// the regression limits on both sides would hardly become a regression, and stopping it spends no
/// α (what it costs is power against a change the interval all but excludes).
public struct SequentialRule: Sendable, Equatable {
    /// Pairs per case at each look, rising; the last is the most a case gets.
    public let looks: [Int]
    /// The share of α the interim looks spend together.
    public static let interimShare = 0.1
    /// Each look's pairs are about this many times the last's.
    public static let growth = 1.5

    /// Looks from `firstLook` pairs up to `maximumPairs`, even counts so that both orders (A B and
    /// B A) stay balanced.
    public init(firstLook: Int, maximumPairs: Int) {
        var looks = [firstLook]
        while looks.last! < maximumPairs {
            let grown = Int((Double(looks.last!) * Self.growth).rounded(.up))
            looks.append(min(maximumPairs, grown + grown % 2))
        }
        self.looks = looks
    }

    /// The share of α a look tests at: the interim share split evenly, or the rest at a case's
    /// last look. A single look is a plain test at α.
    public func share(last: Bool) -> Double {
        guard looks.count > 1 else { return 1 }
        return last ? 1 - Self.interimShare : Self.interimShare / Double(looks.count - 1)
    }

    /// Whether a case needs more pairs.
    public enum CaseState: Sendable, Equatable {
        case open
        /// More pairs cannot change its verdict: why.
        case settled(String)
    }

    /// Each case's state after a look. `comparison` compares the pairs so far (paired, without
    /// sequential p-values). A case is settled when each of its rows is:
    /// - decided: significant at this interim look's share of α, Bonferroni-corrected over every
    ///   tested row of the table (which implies Holm's at the end), and beyond the minimum effect
    ///   and the limits: a regression or an improvement;
    /// - within the limits: its 95% interval lies inside ± the relative limit, or inside ± the
    ///   absolute one, so more pairs would hardly make it a regression (and stopping it can only
    ///   lower the false alarms);
    /// - or not testable (not comparable, a new failure): more pairs do not help.
    public func states(_ comparison: Comparison) -> [String: CaseState] {
        let tested = Double(comparison.rows.filter { $0.estimate != nil }.count)
        return Dictionary(grouping: comparison.rows, by: \.caseID).mapValues { rows in
            var reasons: [String] = []
            for row in rows {
                guard let reason = settled(row, testedRows: tested) else { return .open }
                reasons.append("\(row.metric) \(reason)")
            }
            return .settled(reasons.joined(separator: ", "))
        }
    }

    /// Why more pairs cannot change the row's verdict, or nil when they can.
    func settled(_ row: Comparison.Row, testedRows: Double) -> String? {
        guard let estimate = row.estimate, let metric = row.described else { return row.verdict.name }
        if Self.withinLimits(estimate, row.limits) { return "within the limits" }
        let interimP = min(1, estimate.pValue / share(last: false) * testedRows)
        let verdict = Comparison.decide(estimate, adjustedPValue: interimP, limits: row.limits, metric: metric)
        return verdict == .regression || verdict == .improvement ? verdict.name : nil
    }

    /// Whether the interval lies inside ± the relative limit, or inside ± the absolute one.
    static func withinLimits(_ estimate: ChangeEstimate, _ limits: ResolvedLimits) -> Bool {
        let absolute = max(abs(estimate.absoluteInterval.lower), abs(estimate.absoluteInterval.upper))
        if absolute <= limits.maximumAbsoluteRegression { return true }
        guard let relative = estimate.relativeInterval else { return false }
        return max(abs(relative.lower), abs(relative.upper)) <= limits.maximumRelativeRegression
    }
}

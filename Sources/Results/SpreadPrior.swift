/// The typical spread between processes among cases measured in the same run: what a case's own
/// three or four processes are moderated towards (`CaseEstimate`).
///
/// It is the median of the cases' own variances (of the logarithms of their process values), not
/// their mean: a few cases whose processes split between a fast and a slow mode have variances a
/// thousand times the rest, and a mean would widen every quiet case's interval to theirs. A case
/// that does split keeps its own wide spread, since its own degrees of freedom outweigh the
/// prior's. This is the moderation of Smyth's limma (2004), with a fixed weight instead of one
/// fitted to the distribution of variances: with tens of cases per run the fit would be noisier
/// than the choice, which the calibration in the README measures.
public struct SpreadPrior: Sendable, Equatable {
    /// The standard deviation of the logarithms the prior stands for.
    public let spread: Double
    /// How many degrees of freedom the prior counts for against a case's own k − 1.
    public let weight: Double

    /// The weight: one process more than the quick suite's own k − 1, so a case's spread is half
    /// its own, half the run's typical spread.
    public static let standardWeight = 4.0
    /// Fewer cases than this in a family and the family's median says too little: the run's is
    /// used instead.
    public static let minimumCases = 4

    public init(spread: Double, weight: Double = SpreadPrior.standardWeight) {
        precondition(spread >= 0 && weight > 0, "a prior needs a spread and a positive weight")
        self.spread = spread
        self.weight = weight
    }

    /// The prior of cases whose own spreads are `spreads` (one per case with two processes or
    /// more), or nil when there are fewer than `minimumCases`.
    public init?(ownSpreads spreads: [Double], weight: Double = SpreadPrior.standardWeight) {
        guard spreads.count >= Self.minimumCases else { return nil }
        let variances = spreads.map { $0 * $0 }.sorted()
        self.init(spread: SampleStatistics.percentile(variances, 0.5).squareRoot(), weight: weight)
    }
}

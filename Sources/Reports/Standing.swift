import Claims
import Harness

/// The contenders of one parameter set under one allocator, fastest first by median, and
/// whether the fastest is clearly so: its median's 95% interval lies wholly below the runner-up's
/// (the rule the claims use, `Faster`). Otherwise it is a tie, however far apart the medians.
struct Standing {
    /// The cases that have samples, by ascending median.
    let ranked: [(measured: MeasuredCase, statistics: SampleStatistics)]

    init(_ cases: [MeasuredCase]) {
        ranked = cases.compactMap { measured in measured.statistics.map { (measured, $0) } }
            .sorted { $0.statistics.median < $1.statistics.median }
    }

    var fastest: SampleStatistics? { ranked.first?.statistics }

    /// True when there are two contenders or more and the fastest's interval is below every other's.
    var isClear: Bool {
        ranked.count >= 2 && Faster(ranked[0].statistics, ranked[1].statistics) == .first
    }

    /// The runner-up's median over the fastest's (≥ 1), with two contenders or more.
    var margin: Double? {
        ranked.count >= 2 ? ranked[1].statistics.median / ranked[0].statistics.median : nil
    }

    /// Whether `statistics` cannot be told apart from the fastest (their intervals overlap).
    func tiesWithFastest(_ statistics: SampleStatistics) -> Bool {
        guard let fastest else { return false }
        return Faster(fastest, statistics) == .neither
    }
}

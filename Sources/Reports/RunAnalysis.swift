import Claims
import Results

/// What every output of a run reads, computed once: each case's estimate (`RunEstimates`) and
/// the claims' verdicts on them. `ResultsWriter` renders from it, and `bench run` prints its
/// summary and verdicts from the same one, so the terminal and report.md cannot disagree.
public struct RunAnalysis: Sendable {
    public let run: RunResults
    public let estimates: RunEstimates
    public let verdicts: [ClaimVerdict]

    public init(_ run: RunResults) {
        self.run = run
        estimates = RunEstimates(run.cases)
        verdicts = Claim.verdicts(for: run, estimates: estimates)
    }
}

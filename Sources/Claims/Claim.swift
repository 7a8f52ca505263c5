import CaseCatalogue
import Results

/// A claim of the source documents that the suite's measurements can test, and how.
public struct Claim: Sendable {
    public let id: String
    /// What the verdict measures: Swift code or the runtime itself.
    public let layer: ClaimLayer
    /// The claim in the document's words.
    public let statement: String
    /// What is compared, under which parameters: a verdict holds only there.
    public let conditions: String
    /// Every case the rule reads: a test checks each against the cases the workloads generate,
    /// so a renamed case fails there instead of leaving the claim inconclusive.
    public let cited: [CaseSpec]
    /// The counters the rule needs, of which cases: a run counts a costly counter (system calls)
    /// only for these (`cases(reading:)`). Context a rule quotes when present is not among them.
    var readings: [CounterReading] = []
    /// The rule: a verdict, the evidence lines and the reason, from the run's evidence.
    let judge: @Sendable (Evidence) -> Judgement

    struct Judgement {
        let verdict: Verdict
        let evidence: [String]
        let reason: String
        /// The cases of a timing comparison this run could not decide (`Faster` said neither):
        /// more processes for them decide it (`undecidedCaseIDs`).
        var undecided: [String] = []

        init(_ verdict: Verdict, _ evidence: [String], _ reason: String, undecided: [String] = []) {
            self.verdict = verdict
            self.evidence = evidence
            self.reason = reason
            self.undecided = undecided
        }
    }

    /// Every claim the suite tests: the dispatch guide's, then the Swift documentation's.
    public static let all: [Claim] = GuideClaims.all + SwiftConcurrencyClaims.all

    /// The cases whose `counter` some claim reads, e.g. "syscalls": what a run must count for
    /// the claims to be judged.
    public static func cases(reading counter: String, claims: [Claim] = Claim.all) -> [CaseSpec] {
        claims.flatMap { $0.readings.filter { $0.counter == counter }.map(\.side.spec) }
    }

    /// The ids of the cases of every timing comparison the claims could not decide in `cases`:
    /// more processes for them decide it, as for the report's questions (`AnswerRound`).
    public static func undecidedCaseIDs(_ cases: [CaseResult], claims: [Claim] = Claim.all) -> Set<String> {
        let evidence = Evidence(cases: cases)
        return Set(claims.flatMap { $0.judge(evidence).undecided })
    }

    /// Every claim's verdict for `run`, in `all` order.
    public static func verdicts(for run: RunResults, estimates: RunEstimates? = nil, claims: [Claim] = Claim.all)
        -> [ClaimVerdict]
    {
        let evidence = Evidence(run, estimates: estimates)
        return claims.map { claim in
            let judgement = claim.judge(evidence)
            return ClaimVerdict(
                claim: claim.id, layer: claim.layer, statement: claim.statement, verdict: judgement.verdict,
                evidence: judgement.evidence,
                conditions: claim.conditions, reason: judgement.reason)
        }
    }
}

/// One side of a timing comparison: a case to look up and how to name it in the evidence.
struct Side: Sendable {
    let spec: CaseSpec
    let label: String

    init(_ spec: CaseSpec, label: String) { (self.spec, self.label) = (spec, label) }
}

/// A counter of one case (or a figure the workload measured itself) compared with thresholds.
struct CounterReading: Sendable {
    let side: Side
    let counter: String
    /// How the figure reads in the evidence: "<value> <shown> <per>", e.g. "2.02 syscalls per
    /// operation", "144 resident bytes per unit". `shown` defaults to the counter's name.
    var shown: String?
    var per = "per operation"
}

extension Claim {
    /// "`claimed` is faster than `other`": supported when its comparison interval lies wholly below
    /// the other's, refuted when wholly above, inconclusive when they overlap. With several
    /// candidates for the claimed side, the fastest figure speaks for it (and says so).
    static func faster(
        id: String, layer: ClaimLayer, statement: String, conditions: String, claimed candidates: [Side],
        than other: Side
    ) -> Claim {
        Claim(
            id: id, layer: layer, statement: statement, conditions: conditions,
            cited: (candidates + [other]).map(\.spec)
        ) { evidence in
            let found = candidates.map { evidence.find($0.spec, label: $0.label) }
            let measured = found.compactMap { try? $0.get() }
            guard let claimed = measured.min(by: { $0.estimate.value < $1.estimate.value }) else {
                let reasons = found.compactMap { if case .failure(let missing) = $0 { missing.reason } else { nil } }
                return Judgement(.inconclusive, [], "not measured: " + reasons.joined(separator: "; "))
            }
            let baseline: Evidence.Measured
            switch evidence.find(other.spec, label: other.label) {
            case .success(let found): baseline = found
            case .failure(let missing):
                return Judgement(.inconclusive, [claimed.timing], "not measured: \(missing.reason)")
            }
            let ratio = baseline.estimate.value / claimed.estimate.value
            var lines = [claimed.timing, baseline.timing, "\(other.label) / \(claimed.label): \(Figures.ratio(ratio))"]
            if measured.count > 1 {
                lines.append("the fastest of \(measured.map(\.label).joined(separator: ", ")) speaks for the claim")
            }
            switch Faster(claimed.estimate, baseline.estimate) {
            case .first:
                return Judgement(
                    .supported, lines, "\(claimed.label) is faster by more than their processes' spread allows")
            case .second:
                return Judgement(
                    .refuted, lines, "\(other.label) is faster by more than their processes' spread allows")
            case .neither:
                return Judgement(
                    .inconclusive, lines,
                    "they differ by less than their processes' spread allows: a repeat run could order them either way",
                    undecided: [claimed.id, baseline.id])
            case .dependsOnMode:
                return Judgement(
                    .inconclusive, lines,
                    "which is faster depends on the mode a process falls into: compared mode by mode, "
                        + "each wins in one")
            }
        }
    }
}

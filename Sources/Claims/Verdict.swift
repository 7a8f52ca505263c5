/// What the measurements say about one claim of the source documents.
public enum Verdict: String, Sendable, Codable, CaseIterable {
    /// The measurements agree with the claim, with comparison intervals that do not overlap (or a
    /// counter far on the claim's side of its threshold).
    case supported
    /// The measurements contradict it, just as clearly.
    case refuted
    /// Intervals overlap, a needed case did not run, or a needed counter was unavailable: the
    /// reason says which. Never a guess.
    case inconclusive
}

/// One claim's verdict with the numbers behind it and the conditions it holds under.
public struct ClaimVerdict: Sendable, Codable, Equatable {
    /// Stable identifier, e.g. `queues-beat-locks-uncontended`.
    public let claim: String
    /// What the verdict measures: Swift code or the runtime itself.
    public let layer: ClaimLayer
    /// The claim in the source document's words.
    public let statement: String
    public let verdict: Verdict
    /// The figures compared, one line each, e.g. "libdispatch queue-sync: 43.1 ns (a repeat: 40.9–45.4)".
    public let evidence: [String]
    /// What was compared and under which parameters: a verdict holds only there.
    public let conditions: String
    /// Why the verdict is what it is, in one sentence.
    public let reason: String

    public init(
        claim: String, layer: ClaimLayer, statement: String, verdict: Verdict, evidence: [String], conditions: String,
        reason: String
    ) {
        self.claim = claim
        self.layer = layer
        self.statement = statement
        self.verdict = verdict
        self.evidence = evidence
        self.conditions = conditions
        self.reason = reason
    }
}

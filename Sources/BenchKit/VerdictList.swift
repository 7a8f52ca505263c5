import Claims

/// The claims' verdicts on the terminal, one block each: `bench claims` prints them, and
/// `bench run` after a run that measured the claims' cases.
enum VerdictList {
    static func print(_ verdicts: [ClaimVerdict]) {
        for verdict in verdicts {
            Swift.print("\(verdict.verdict.rawValue.uppercased()): \(verdict.claim)")
            Swift.print("  claim:      \"\(verdict.statement)\"")
            Swift.print("  layer:      \(verdict.layer)")
            Swift.print("  conditions: \(verdict.conditions)")
            for line in verdict.evidence { Swift.print("  measured:   \(line)") }
            Swift.print("  because:    \(verdict.reason)")
        }
    }
}

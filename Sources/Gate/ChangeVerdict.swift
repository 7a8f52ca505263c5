/// What a comparison concludes about one case and metric. `.regression` and `.newFailure` fail
/// `bench check` and `bench ab`.
public enum ChangeVerdict: Sendable, Equatable {
    /// Significant after correction, beyond the minimum effect, and beyond both regression limits.
    case regression
    /// Processes of the case failed in the new run (crashed, hung, exited early, printed garbage)
    /// while every one of the base's finished: what failed. A row of its own, metric "processes".
    case newFailure(String)
    /// Significant after correction, faster or smaller by at least the minimum effect.
    case improvement
    /// Not significant, smaller than the minimum effect, or within the regression limits: why.
    case noChange(String)
    /// Not significant, although the estimate moved beyond the regression limits (either way): the
    /// runs had too few processes to tell a change from their spread. Fails nothing; more decide.
    case undecided(String)
    /// The two runs cannot be compared here: why (missing, too few processes, another machine ...).
    case notComparable(String)

    /// The verdict without its reason: what tables count and filter by. Its raw value is the
    /// name printed in the first column.
    public enum Kind: String, Sendable, CaseIterable {
        case regression, newFailure = "new failure", improvement, noChange = "no change", undecided, notComparable =
            "not comparable"
    }

    public var kind: Kind {
        switch self {
        case .regression: .regression
        case .newFailure: .newFailure
        case .improvement: .improvement
        case .noChange: .noChange
        case .undecided: .undecided
        case .notComparable: .notComparable
        }
    }

    /// "regression", "no change", ...: the kind as printed.
    public var name: String { kind.rawValue }

    public var reason: String? {
        switch self {
        case .regression, .improvement: nil
        case .newFailure(let why), .noChange(let why), .undecided(let why), .notComparable(let why): why
        }
    }

    /// Whether the verdict fails the gate.
    public var fails: Bool {
        switch self {
        case .regression, .newFailure: true
        case .improvement, .noChange, .undecided, .notComparable: false
        }
    }

    /// Tables list regressions and new failures first, then improvements, then what could not be
    /// decided or compared.
    var order: Int {
        switch self {
        case .regression, .newFailure: 0
        case .improvement: 1
        case .undecided: 2
        case .notComparable: 3
        case .noChange: 4
        }
    }
}

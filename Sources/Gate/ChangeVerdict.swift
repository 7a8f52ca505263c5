/// What a comparison concludes about one case and metric. Only `.regression` fails `bench check`.
public enum ChangeVerdict: Sendable, Equatable {
    /// Significant after correction, beyond the minimum effect, and beyond both regression limits.
    case regression
    /// Significant after correction, faster or smaller by at least the minimum effect.
    case improvement
    /// Not significant, smaller than the minimum effect, or within the regression limits: why.
    case noChange(String)
    /// The two runs cannot be compared here: why (missing, too few processes, another machine ...).
    case notComparable(String)

    public var name: String {
        switch self {
        case .regression: "regression"
        case .improvement: "improvement"
        case .noChange: "no change"
        case .notComparable: "not comparable"
        }
    }

    public var reason: String? {
        switch self {
        case .regression, .improvement: nil
        case .noChange(let why), .notComparable(let why): why
        }
    }

    /// Tables list regressions first, then improvements, then what could not be compared.
    var order: Int {
        switch self {
        case .regression: 0
        case .improvement: 1
        case .notComparable: 2
        case .noChange: 3
        }
    }
}

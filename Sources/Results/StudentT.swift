#if canImport(Glibc)
import Glibc
#endif

/// Student's t distribution: the two-sided tail probability of a t statistic and its quantiles,
/// for the gate's tests and the report's intervals on a handful of per-process values (2 to 20),
/// where the normal approximation would call noise significant.
///
/// The tail comes from the regularized incomplete beta function, P(|T| > t) = I_x(ν/2, 1/2) with
/// x = ν / (ν + t²), evaluated by its continued fraction (modified Lentz). Accurate to about 1e-12
/// against scipy.stats.t (HarnessTests has the reference values).
public enum StudentT {
    /// P(|T| ≥ |t|) for `degreesOfFreedom` ν > 0 (fractional ν, as Welch's test gives, is fine).
    public static func twoSidedTail(_ t: Double, degreesOfFreedom ν: Double) -> Double {
        precondition(ν > 0, "degrees of freedom must be positive")
        guard t.isFinite else { return t.isNaN ? .nan : 0 }
        let x = ν / (ν + t * t)
        return regularizedIncompleteBeta(x, a: ν / 2, b: 0.5)
    }

    /// The t with P(|T| ≥ t) = `tail`, e.g. tail 0.05 → the 97.5% quantile (2.776 for ν = 4).
    public static func twoSidedCritical(tail: Double, degreesOfFreedom ν: Double) -> Double {
        precondition(tail > 0 && tail < 1, "tail probability must be in (0, 1)")
        // The tail falls as t grows: bisect on [0, hi] after doubling hi until it brackets.
        var low = 0.0, high = 1.0
        while twoSidedTail(high, degreesOfFreedom: ν) > tail { high *= 2 }
        for _ in 0..<200 where high - low > 1e-12 * high {
            let middle = (low + high) / 2
            if twoSidedTail(middle, degreesOfFreedom: ν) > tail { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// I_x(a, b), the regularized incomplete beta function, for 0 ≤ x ≤ 1 and a, b > 0.
    static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // The prefactor x^a (1−x)^b / (a B(a, b)), in logarithms to avoid overflow.
        let logFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
        // The continued fraction converges fast for x < (a + 1) / (a + b + 2); otherwise use the
        // symmetry I_x(a, b) = 1 − I_{1−x}(b, a).
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * continuedFraction(x, a: a, b: b) / a
        }
        return 1 - exp(logFront) * continuedFraction(1 - x, a: b, b: a) / b
    }

    /// The continued fraction of I_x(a, b) (without its prefactor), by the modified Lentz method.
    private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var fraction = d
        for m in 1...10_000 {
            let m = Double(m)
            // Even step: d_{2m} = m (b − m) x / ((a + 2m − 1)(a + 2m)).
            var numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            fraction *= d * c
            // Odd step: d_{2m+1} = −(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
            numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            fraction *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return fraction
    }
}

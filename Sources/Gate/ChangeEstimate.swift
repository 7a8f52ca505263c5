#if canImport(Glibc)
import Glibc
#endif

/// How much a metric moved from a base run to a new one, with its 95% confidence interval and
/// the p-value of "it did not move", from per-process values.
///
/// Positive values (times, most counts) are compared as ratios: the test runs on logarithms, so a
/// 10% slowdown of a 5 ns operation and of a 5 ms one weigh the same, and the estimate is the
/// ratio of geometric means. A metric with a zero or a negative value (no allocation at all) is
/// compared on its own scale, as a difference; its relative change is the difference over the
/// base's mean, and nil when that mean is 0.
///
/// - Unpaired (`bench compare`, `bench check`: two runs made apart): Welch's t test, which does
///   not assume the two runs are equally noisy.
/// - Paired (`bench ab`: process i of A ran next to process i of B): the one-sample t test on the
///   per-pair differences, which cancels whatever drifted between pairs.
public struct ChangeEstimate: Sendable, Equatable {
    public enum Scale: String, Sendable { case ratio, difference }

    public let scale: Scale
    /// The base's and the new run's centre: geometric means on the ratio scale, means otherwise.
    public let base: Double
    public let new: Double
    /// new/base − 1; nil when the base is 0 on the difference scale.
    public let relativeChange: Double?
    /// The 95% interval of `relativeChange`, or nil with it.
    public let relativeInterval: (lower: Double, upper: Double)?
    /// new − base, in the metric's unit.
    public let absoluteChange: Double
    /// P(a change at least this large | no change), two-sided, before any correction.
    public let pValue: Double
    public let degreesOfFreedom: Double

    public static let confidence = 0.95

    public static func == (lhs: ChangeEstimate, rhs: ChangeEstimate) -> Bool {
        lhs.scale == rhs.scale && lhs.base == rhs.base && lhs.new == rhs.new && lhs.relativeChange == rhs.relativeChange
            && lhs.relativeInterval?.lower == rhs.relativeInterval?.lower && lhs.relativeInterval?.upper == rhs.relativeInterval?.upper
            && lhs.absoluteChange == rhs.absoluteChange && lhs.pValue == rhs.pValue && lhs.degreesOfFreedom == rhs.degreesOfFreedom
    }

    /// Welch's test; nil unless each side has at least 2 values.
    public static func unpaired(base: [Double], new: [Double]) -> ChangeEstimate? {
        guard base.count >= 2, new.count >= 2 else { return nil }
        let scale: Scale = (base + new).allSatisfy { $0 > 0 } ? .ratio : .difference
        let transform: (Double) -> Double = scale == .ratio ? { log($0) } : { $0 }
        let (baseMean, baseVariance) = meanAndVariance(base.map(transform))
        let (newMean, newVariance) = meanAndVariance(new.map(transform))
        let baseShare = baseVariance / Double(base.count), newShare = newVariance / Double(new.count)
        let standardError = (baseShare + newShare).squareRoot()
        // Welch–Satterthwaite; with no spread on either side the difference is exact.
        let denominator = baseShare * baseShare / Double(base.count - 1) + newShare * newShare / Double(new.count - 1)
        let degrees = denominator > 0 ? pow(baseShare + newShare, 2) / denominator : Double(base.count + new.count - 2)
        return make(scale: scale, baseCentre: baseMean, newCentre: newMean, difference: newMean - baseMean,
                    standardError: standardError, degreesOfFreedom: degrees)
    }

    /// The paired test over the repetitions both sides have (pair i = base[i] with new[i]); nil
    /// with fewer than 2 pairs.
    public static func paired(base: [Int: Double], new: [Int: Double]) -> ChangeEstimate? {
        let pairs = base.keys.filter { new[$0] != nil }.sorted().map { (base[$0]!, new[$0]!) }
        guard pairs.count >= 2 else { return nil }
        let scale: Scale = pairs.allSatisfy { $0.0 > 0 && $0.1 > 0 } ? .ratio : .difference
        let transform: (Double) -> Double = scale == .ratio ? { log($0) } : { $0 }
        let differences = pairs.map { transform($0.1) - transform($0.0) }
        let (meanDifference, variance) = meanAndVariance(differences)
        let baseCentre = meanAndVariance(pairs.map { transform($0.0) }).mean
        return make(scale: scale, baseCentre: baseCentre, newCentre: baseCentre + meanDifference, difference: meanDifference,
                    standardError: (variance / Double(pairs.count)).squareRoot(), degreesOfFreedom: Double(pairs.count - 1))
    }

    /// From the difference of the transformed centres and its standard error.
    private static func make(scale: Scale, baseCentre: Double, newCentre: Double, difference: Double,
                             standardError: Double, degreesOfFreedom: Double) -> ChangeEstimate {
        let pValue: Double
        let halfWidth: Double
        if standardError > 0 {
            pValue = StudentT.twoSidedTail(difference / standardError, degreesOfFreedom: degreesOfFreedom)
            halfWidth = StudentT.twoSidedCritical(tail: 1 - confidence, degreesOfFreedom: degreesOfFreedom) * standardError
        } else {
            // Every value identical on each side: the change is exactly the difference.
            pValue = difference == 0 ? 1 : 0
            halfWidth = 0
        }
        switch scale {
        case .ratio:
            let base = exp(baseCentre), new = exp(newCentre)
            return ChangeEstimate(scale: scale, base: base, new: new, relativeChange: expm1(difference),
                                  relativeInterval: (expm1(difference - halfWidth), expm1(difference + halfWidth)),
                                  absoluteChange: new - base, pValue: pValue, degreesOfFreedom: degreesOfFreedom)
        case .difference:
            let relative = baseCentre > 0 ? difference / baseCentre : nil
            let interval = baseCentre > 0 ? ((difference - halfWidth) / baseCentre, (difference + halfWidth) / baseCentre) : nil
            return ChangeEstimate(scale: scale, base: baseCentre, new: newCentre, relativeChange: relative,
                                  relativeInterval: interval, absoluteChange: difference, pValue: pValue,
                                  degreesOfFreedom: degreesOfFreedom)
        }
    }

    /// The mean and the sample variance (n − 1).
    private static func meanAndVariance(_ values: [Double]) -> (mean: Double, variance: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        guard values.count > 1 else { return (mean, 0) }
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (mean, squares / Double(values.count - 1))
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Results

/// How much a metric moved from a base run to a new one, with its 95% confidence interval and
/// the p-value of "it did not move", from per-process values.
///
/// Positive values (times, most counts) are compared as ratios: the test runs on logarithms, so a
/// 10% slowdown of a 5 ns operation and of a 5 ms one weigh the same, and the estimate is a ratio
/// of geometric means. A metric with a zero or a negative value (no allocation at all) is compared
/// on its own scale, as a difference; its relative change is the difference over the base's
/// centre, and nil when that centre is 0.
///
/// The tests are Yuen's: t tests on 20%-trimmed means, with the spread taken from the winsorized
/// values (the Tukey–McLaughlin standard error). On a virtual machine a process sometimes spends
/// its whole life in a slow phase of the host, and a pair with one such process gives a log-ratio
/// far from all the others. The plain mean follows those pairs and the plain t test loses the
/// change under them; the trimmed mean ignores them (README.md, "How well the gate works" and
/// "Where the noise comes from on this VM"). With fewer than 5 values a side nothing is trimmed,
/// and the tests are exactly Welch's and the paired t.
///
/// - Unpaired (`bench compare`, `bench check`: two runs made apart): Yuen–Welch, which does not
///   assume the two runs are equally noisy.
/// - Paired (`bench ab`: process i of A ran next to process i of B): the one-sample Yuen test on
///   the per-pair differences, which cancels whatever drifted between pairs.
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
    /// The 95% interval of `absoluteChange`.
    public let absoluteInterval: (lower: Double, upper: Double)
    /// P(a change at least this large | no change), two-sided, before any correction.
    public let pValue: Double
    public let degreesOfFreedom: Double

    public static let confidence = 0.95
    /// The share trimmed from each end before the mean (20%: Wilcox's recommendation, which keeps
    /// nearly all of the t test's power on normal data).
    public static let trimming = 0.2

    public static func == (lhs: ChangeEstimate, rhs: ChangeEstimate) -> Bool {
        lhs.scale == rhs.scale && lhs.base == rhs.base && lhs.new == rhs.new && lhs.relativeChange == rhs.relativeChange
            && lhs.relativeInterval?.lower == rhs.relativeInterval?.lower
            && lhs.relativeInterval?.upper == rhs.relativeInterval?.upper
            && lhs.absoluteChange == rhs.absoluteChange && lhs.absoluteInterval == rhs.absoluteInterval
            && lhs.pValue == rhs.pValue && lhs.degreesOfFreedom == rhs.degreesOfFreedom
    }

    /// Yuen–Welch; nil unless each side has at least 2 values.
    public static func unpaired(base: [Double], new: [Double]) -> ChangeEstimate? {
        guard base.count >= 2, new.count >= 2 else { return nil }
        let scale: Scale = (base + new).allSatisfy { $0 > 0 } ? .ratio : .difference
        let transform: (Double) -> Double = scale == .ratio ? { log($0) } : { $0 }
        let baseSide = TrimmedSample(base.map(transform)), newSide = TrimmedSample(new.map(transform))
        let squaredError = baseSide.squaredStandardError + newSide.squaredStandardError
        // Welch–Satterthwaite on the trimmed samples; with no spread on either side the
        // difference is exact.
        let denominator =
            baseSide.squaredStandardError * baseSide.squaredStandardError / Double(baseSide.kept - 1)
            + newSide.squaredStandardError * newSide.squaredStandardError / Double(newSide.kept - 1)
        let degrees =
            denominator > 0 ? squaredError * squaredError / denominator : Double(baseSide.kept + newSide.kept - 2)
        return make(
            scale: scale, baseCentre: baseSide.trimmedMean, newCentre: newSide.trimmedMean,
            difference: newSide.trimmedMean - baseSide.trimmedMean, standardError: squaredError.squareRoot(),
            degreesOfFreedom: degrees)
    }

    /// The paired test over the repetitions both sides have (pair i = base[i] with new[i]); nil
    /// with fewer than 2 pairs.
    public static func paired(base: [Int: Double], new: [Int: Double]) -> ChangeEstimate? {
        let pairs = base.keys.filter { new[$0] != nil }.sorted().map { (base[$0]!, new[$0]!) }
        guard pairs.count >= 2 else { return nil }
        let scale: Scale = pairs.allSatisfy { $0.0 > 0 && $0.1 > 0 } ? .ratio : .difference
        let transform: (Double) -> Double = scale == .ratio ? { log($0) } : { $0 }
        let differences = TrimmedSample(pairs.map { transform($0.1) - transform($0.0) })
        let baseCentre = TrimmedSample(pairs.map { transform($0.0) }).trimmedMean
        return make(
            scale: scale, baseCentre: baseCentre, newCentre: baseCentre + differences.trimmedMean,
            difference: differences.trimmedMean, standardError: differences.squaredStandardError.squareRoot(),
            degreesOfFreedom: Double(differences.kept - 1))
    }

    /// From the difference of the transformed centres and its standard error.
    private static func make(
        scale: Scale, baseCentre: Double, newCentre: Double, difference: Double,
        standardError: Double, degreesOfFreedom: Double
    ) -> ChangeEstimate {
        let pValue: Double
        let halfWidth: Double
        if standardError > 0 {
            pValue = StudentT.twoSidedTail(difference / standardError, degreesOfFreedom: degreesOfFreedom)
            halfWidth =
                StudentT.twoSidedCritical(tail: 1 - confidence, degreesOfFreedom: degreesOfFreedom) * standardError
        } else {
            // Every value identical on each side: the change is exactly the difference.
            pValue = difference == 0 ? 1 : 0
            halfWidth = 0
        }
        switch scale {
        case .ratio:
            let base = exp(baseCentre), new = exp(newCentre)
            return ChangeEstimate(
                scale: scale, base: base, new: new, relativeChange: expm1(difference),
                relativeInterval: (expm1(difference - halfWidth), expm1(difference + halfWidth)),
                absoluteChange: new - base,
                absoluteInterval: (base * expm1(difference - halfWidth), base * expm1(difference + halfWidth)),
                pValue: pValue, degreesOfFreedom: degreesOfFreedom)
        case .difference:
            let relative = baseCentre > 0 ? difference / baseCentre : nil
            let interval =
                baseCentre > 0 ? ((difference - halfWidth) / baseCentre, (difference + halfWidth) / baseCentre) : nil
            return ChangeEstimate(
                scale: scale, base: baseCentre, new: newCentre, relativeChange: relative,
                relativeInterval: interval, absoluteChange: difference,
                absoluteInterval: (difference - halfWidth, difference + halfWidth), pValue: pValue,
                degreesOfFreedom: degreesOfFreedom)
        }
    }
}

/// A sample trimmed by `ChangeEstimate.trimming` at each end: its trimmed mean, and the squared
/// standard error of that mean from the winsorized variance (Tukey–McLaughlin):
/// (n − 1) s²_w / (h (h − 1)), h the number of values kept.
struct TrimmedSample {
    let trimmedMean: Double
    let squaredStandardError: Double
    /// h: values left after trimming.
    let kept: Int

    init(_ values: [Double]) {
        let sorted = values.sorted()
        let n = sorted.count
        let cut = Int((ChangeEstimate.trimming * Double(n)).rounded(.down))
        let kept = n - 2 * cut
        let trimmedMean = sorted[cut..<(n - cut)].reduce(0, +) / Double(kept)
        // Winsorized: each trimmed value replaced by the nearest kept one.
        let winsorized = sorted.indices.map { sorted[min(max($0, cut), n - cut - 1)] }
        let mean = winsorized.reduce(0, +) / Double(n)
        let squares = winsorized.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        self.trimmedMean = trimmedMean
        self.kept = kept
        squaredStandardError = kept > 1 ? squares / Double(kept * (kept - 1)) : 0
    }
}

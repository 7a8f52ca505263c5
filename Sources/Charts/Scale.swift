#if canImport(Glibc)
import Glibc
#endif

/// Maps data values onto a pixel range, linearly or by their logarithm, and proposes ticks.
public struct Scale: Sendable {
    public enum Kind: Sendable { case linear, logarithmic }

    public let kind: Kind
    public let domain: ClosedRange<Double>
    let pixels: ClosedRange<Double>
    /// True when the pixel coordinate grows as the value shrinks (a y axis).
    let inverted: Bool

    /// A scale covering `values`, widened to 1, 2 or 5 times a power of ten (logarithmic) or to a
    /// nice step (linear, from zero when every value is positive) so ticks fall on round numbers.
    /// - Precondition: for a logarithmic scale every value is positive.
    init(_ kind: Kind, covering values: [Double], pixels: ClosedRange<Double>, inverted: Bool) {
        self.kind = kind
        self.pixels = pixels
        self.inverted = inverted
        let low = values.min() ?? 1, high = values.max() ?? 1
        switch kind {
        case .logarithmic:
            precondition(low > 0, "a logarithmic scale needs positive values, got \(low)")
            let lower = Self.roundLogarithmic(low, up: false), upper = Self.roundLogarithmic(high, up: true)
            domain = lower...(upper > lower ? upper : lower * 10)
        case .linear:
            let start = min(0, low)
            let step = Self.niceStep(span: max(high - start, Double.ulpOfOne), ticks: 5)
            domain = start...(max(ceil(high / step), 1) * step)
        }
    }

    /// The pixel coordinate of `value`.
    public func position(_ value: Double) -> Double {
        let fraction: Double
        switch kind {
        case .linear: fraction = (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound)
        case .logarithmic: fraction = log10(value / domain.lowerBound) / log10(domain.upperBound / domain.lowerBound)
        }
        let span = pixels.upperBound - pixels.lowerBound
        return inverted ? pixels.upperBound - fraction * span : pixels.lowerBound + fraction * span
    }

    /// Round values inside the domain: every power of ten on a logarithmic scale (with 2 and 5
    /// between them when it spans fewer than three decades), multiples of a 1-2-5 step otherwise.
    public func ticks() -> [Double] {
        switch kind {
        case .logarithmic:
            let first = Int(floor(log10(domain.lowerBound) + 1e-9)), last = Int(floor(log10(domain.upperBound) + 1e-9))
            let multiples: [Double] = last - first < 3 ? [1, 2, 5] : [1]
            let low = domain.lowerBound * (1 - 1e-9), high = domain.upperBound * (1 + 1e-9)
            let candidates: [Double] = (first...last).flatMap { (decade: Int) -> [Double] in
                let power = pow(10, Double(decade))
                return multiples.map { $0 * power }
            }
            return candidates.filter { (low...high).contains($0) }
        case .linear:
            let step = Self.niceStep(span: domain.upperBound - domain.lowerBound, ticks: 5)
            return stride(from: domain.lowerBound, through: domain.upperBound + step / 1e6, by: step).map { $0 }
        }
    }

    /// The nearest of 1, 2 or 5 times a power of ten at or below `value` (`up`: at or above), so
    /// a log axis ends on a round number without widening to a whole decade.
    static func roundLogarithmic(_ value: Double, up: Bool) -> Double {
        let decade = pow(10, floor(log10(value)))
        let candidates = [1.0, 2, 5, 10].map { $0 * decade }
        return up ? candidates.first { $0 >= value * (1 - 1e-12) }! : candidates.last { $0 <= value * (1 + 1e-12) }!
    }

    /// 1, 2 or 5 times a power of ten, giving about `ticks` intervals over `span`.
    static func niceStep(span: Double, ticks: Int) -> Double {
        let raw = span / Double(ticks)
        let magnitude = pow(10, floor(log10(raw)))
        let multiple = [1.0, 2, 5, 10].first { $0 * magnitude >= raw } ?? 10
        return multiple * magnitude
    }
}

/// A tick label: three significant figures at most, with k, M and G for thousands and beyond
/// ("250", "1.5k", "10M"), so a log axis over many decades stays readable.
public func tickLabel(_ value: Double) -> String {
    let units: [(Double, String)] = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
    for (size, suffix) in units where abs(value) >= size {
        return significant(value / size) + suffix
    }
    return significant(value)
}

private func significant(_ value: Double) -> String {
    guard value != 0 else { return "0" }
    let digits = max(0, 2 - Int(floor(log10(abs(value)))))
    let factor = pow(10, Double(digits))
    let rounded = (value * factor).rounded() / factor
    // Past about 9.2e18 an Int cannot hold it (an interval of one process under a wide prior
    // reaches there); Swift's own form ("1e+21") still says it.
    guard abs(rounded) < 1e15 else { return "\(rounded)" }
    return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
}

/// How far the suite's figure for an operation may sit from the same operation written directly
/// against the runtime (shared/DESIGN.md, "Fidelity"), on either side: within `ratio` of it (above,
/// or below by its inverse: 0.8–1.25×), or at most `slack` nanoseconds from it, whichever is
/// looser. The slack keeps a nanosecond-scale operation (a 5 ns semaphore) from failing on a
/// loop's own cost; the ratio governs everything longer.
///
/// The bound is two-sided because a reference slower than the suite validates nothing: it says
/// only that the reference pays for something the suite does not (a retain per link, a wake-up per
/// block), so it is no longer "the runtime's figure" the suite's must match.
public struct FidelityBound: Sendable, Equatable, CustomStringConvertible {
    public let ratio: Double
    public let slackNanoseconds: Double

    public static let standard = FidelityBound(ratio: 1.25, slackNanoseconds: 3)

    public init(ratio: Double, slackNanoseconds: Double) {
        precondition(ratio >= 1 && slackNanoseconds >= 0, "a bound allows at least the direct figure itself")
        self.ratio = ratio
        self.slackNanoseconds = slackNanoseconds
    }

    /// The largest suite figure allowed next to `direct`.
    public func limit(forDirect direct: Double) -> Double { max(direct * ratio, direct + slackNanoseconds) }

    /// The smallest suite figure allowed next to `direct`.
    public func floor(forDirect direct: Double) -> Double { min(direct / ratio, direct - slackNanoseconds) }

    /// Whether `ratio` (suite / direct) is within the ratio alone, 0.8–1.25×, without the slack.
    public func ratioAllows(_ ratio: Double) -> Bool { ratio <= self.ratio && ratio >= 1 / self.ratio }

    public func allows(suite: Double, direct: Double) -> Bool {
        (floor(forDirect: direct)...limit(forDirect: direct)).contains(suite)
    }

    public var description: String {
        "within \((1 / ratio).formatted())–\(ratio.formatted())× of the direct figure "
            + "or \(slackNanoseconds.formatted()) ns from it, whichever is looser"
    }
}

extension Double {
    /// "3" for 3.0, "2.5" otherwise, and no binary tail ("0.8", not "0.8000000000000002").
    fileprivate func formatted() -> String {
        let rounded = (self * 1_000).rounded() / 1_000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// How far the suite's figure for an operation may sit above the same operation written directly
/// against the runtime (shared/DESIGN.md, "Fidelity"): within `ratio` of it, or at most `slack`
/// nanoseconds above it, whichever is looser. The slack keeps a nanosecond-scale operation (a
/// 5 ns semaphore) from failing on a loop's own cost; the ratio governs everything longer.
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

    public func allows(suite: Double, direct: Double) -> Bool { suite <= limit(forDirect: direct) }

    public var description: String {
        "within \(ratio)× of the direct figure or \(slackNanoseconds.formatted()) ns above it, whichever is looser"
    }
}

extension Double {
    /// "3" for 3.0, "2.5" otherwise: for the bound's description.
    fileprivate func formatted() -> String { self == rounded() ? String(Int(self)) : String(self) }
}

import Harness
import Results

/// One backend's soak, as the child measured it: what ran, the resident set along the way, and
/// the failure that stopped it, if any. The parent judges the memory (`SoakVerdict`).
public struct SoakReport: Codable, Sendable {
    public static let currentVersion = 1

    public var version = SoakReport.currentVersion
    public var backend: String
    public var workers: Int
    public var seed: UInt64
    /// Wall time the rounds ran, in seconds.
    public var seconds: Double
    public var rounds: Int
    /// Rounds begun after the warm-up's reading of the resident set: the rounds whose memory the
    /// growth measures. nil in reports written before it was kept.
    public var roundsAfterWarmUp: Int?
    public var operations: SoakOperations
    /// The resident set in bytes before the runtime was created, when the warm-up ended (the
    /// reference the growth is measured from), at the end (before shutdown), and the largest seen.
    public var residentBefore: Int?
    public var residentAfterWarmUp: Int?
    public var residentAtEnd: Int?
    public var residentPeak: Int?
    /// The resident set about once a second: seconds since the first round, bytes.
    public var residentSamples: [ResidentSample]
    /// Why the soak stopped early (a task lost or run twice, a queue out of order, a wait that
    /// timed out), or nil when it ran its whole duration.
    public var failure: String?

    public struct ResidentSample: Codable, Sendable, Equatable {
        public var seconds: Double
        public var bytes: Int
    }

    /// Growth of the resident set from the end of the warm-up to the end, or nil when either was
    /// not measured (no /proc), the soak failed before the warm-up ended, or no round began after
    /// the warm-up (a round that outlasts it is read only once it ends, leak and all).
    public var residentGrowth: Int? {
        guard let start = residentAfterWarmUp, let end = residentAtEnd, roundsAfterWarmUp != 0 else { return nil }
        return end - start
    }
}

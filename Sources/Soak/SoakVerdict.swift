/// One backend's soak judged: passed, or failed with the reason. A soak fails when its child
/// crashed or hung, when a round found a task lost or run twice (or a queue out of order, a
/// `sync` or the semaphore lock wrong, a wait timed out), or when the resident set grew by more
/// than the limit between the end of the warm-up and the end.
public struct SoakVerdict: Codable, Sendable {
    public var backend: String
    /// nil when the child printed no report (it crashed, hung or was interrupted).
    public var report: SoakReport?
    public var passed: Bool
    /// Why it failed, or a remark on a pass (memory not measured).
    public var reason: String?

    public init(backend: String, childFailure: String) {
        self.backend = backend
        report = nil
        passed = false
        reason = childFailure
    }

    /// - Parameter maximumGrowth: bytes the resident set may grow after the warm-up.
    public init(report: SoakReport, maximumGrowth: Int) {
        backend = report.backend
        self.report = report
        if let failure = report.failure {
            passed = false
            reason = failure
        } else if let growth = report.residentGrowth {
            passed = growth <= maximumGrowth
            reason =
                passed
                ? nil
                : "the resident set grew by \(Self.mebibytes(growth)) after the warm-up "
                    + "(\(Self.mebibytes(report.residentAfterWarmUp!)) → \(Self.mebibytes(report.residentAtEnd!))), "
                    + "more than the \(Self.mebibytes(maximumGrowth)) allowed"
        } else {
            passed = true
            reason =
                if report.residentAfterWarmUp != nil && report.residentAtEnd != nil {
                    "memory not judged: no round began after the warm-up (\(report.rounds) rounds in "
                        + "\(SoakParent.format(seconds: report.seconds))); a longer --duration gives them room"
                } else if report.residentAfterWarmUp == nil && report.residentAtEnd != nil {
                    "memory not judged: the soak ended before its warm-up did"
                } else {
                    "memory not measured: /proc/self/statm could not be read"
                }
        }
    }

    /// "12.3 MiB", signed when `signed`.
    public static func mebibytes(_ bytes: Int, signed: Bool = false) -> String {
        let value = (Double(bytes) / 1_048_576 * 10).rounded() / 10
        return (signed && value >= 0 ? "+" : "") + "\(value) MiB"
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// One group of a case's processes that ran the same way, when others ran another way.
///
/// Scheduling-bound cases split between modes across processes: a hand-off between two threads
/// that the kernel happens to place on one CPU costs tens of nanoseconds, the same hand-off
/// across two CPUs with a futex wake-up costs microseconds, and which one a process gets is
/// decided at its start and kept for its life. Such a case's processes fall into groups far
/// apart with nothing between them. A median and one interval over them describe neither group:
/// the median lands in whichever mode has more processes this time, and the interval, wide
/// enough to hold both, calls the case "a tie" with anything. So the groups are found and
/// reported apart (`CaseEstimate.modes`), each with its own figure and its share of processes,
/// and two cases are compared mode by mode (`Faster`).
///
/// The rule: sorted, two neighbouring processes more than `separation` apart split the case.
/// Processes of one mode differ by a few percent on a quiet machine and by tens of percent on a
/// busy one (the run's typical spread, `SpreadPrior`, is 1–10%); a factor of two between
/// neighbours, with no process in between, is not that noise. A single process may be a mode:
/// one process in four that ran twice as slow is a fact about the runtime worth seeing.
public struct ProcessMode: Sendable, Codable, Equatable {
    /// This mode's processes alone, estimated as a case (`values` ascending, the same prior).
    public let estimate: CaseEstimate
    /// Processes of the case, all modes.
    public let ofProcesses: Int
    /// Where the mode's share of processes lies, 95 times in 100 (Wilson's score interval).
    public let shareInterval: ClosedRange<Double>

    /// Neighbouring processes (sorted) at least this factor apart belong to different modes.
    public static let separation = 2.0

    /// Processes in this mode.
    public var processes: Int { estimate.processes }
    /// The mode's share of the case's processes.
    public var share: Double { Double(processes) / Double(ofProcesses) }

    init(estimate: CaseEstimate, ofProcesses: Int) {
        self.estimate = estimate
        self.ofProcesses = ofProcesses
        shareInterval = Self.wilson(estimate.processes, of: ofProcesses)
    }

    /// `values` (positive) split into modes, each ascending, fastest first; one group when no
    /// two neighbours are `separation` apart.
    public static func groups(_ values: [Double]) -> [[Double]] {
        var groups: [[Double]] = []
        for value in values.sorted() {
            if let last = groups.last?.last, value < last * separation {
                groups[groups.count - 1].append(value)
            } else {
                groups.append([value])
            }
        }
        return groups
    }

    /// The 95% Wilson score interval of a share seen as `count` of `total`: unlike the normal
    /// approximation it stays inside 0...1 and says something at 1 of 4.
    public static func wilson(_ count: Int, of total: Int) -> ClosedRange<Double> {
        guard total > 0 else { return 0...1 }
        let z = 1.959964, n = Double(total), p = Double(count) / n
        let denominator = 1 + z * z / n
        let centre = (p + z * z / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return max(0, centre - half)...min(1, centre + half)
    }

    /// How closely the share is known: half the width of its interval (0.15 = ±15 points).
    public var shareUncertainty: Double { (shareInterval.upperBound - shareInterval.lowerBound) / 2 }

    /// Whether `value` (one process's) belongs to this mode: within its processes' range.
    public func contains(_ value: Double) -> Bool {
        guard let low = estimate.values.first, let high = estimate.values.last else { return false }
        return (low...high).contains(value)
    }
}

import CaseCatalogue
import Results

/// The cases of a run as the claims look them up: by workload, backend and parameters, under
/// the system allocator (the claims are about runtimes, not allocators), with their timing and
/// counters, and a reason when something needed is missing.
public struct Evidence: Sendable {
    let cases: [CaseResult]
    let counterAvailability: [String: Availability]
    let estimates: RunEstimates

    /// - Parameter estimates: the run's estimates when the caller has them already.
    public init(_ run: RunResults, estimates: RunEstimates? = nil) {
        self.init(cases: run.cases, counterAvailability: run.counterAvailability, estimates: estimates)
    }

    /// Without `counterAvailability`, the cases alone, for the timing comparisons.
    init(cases: [CaseResult], counterAvailability: [String: Availability] = [:], estimates: RunEstimates? = nil) {
        self.cases = cases
        self.counterAvailability = counterAvailability
        self.estimates = estimates ?? RunEstimates(cases)
    }

    /// A measured case: its id, its figure, and the median of each counter per operation.
    struct Measured {
        let id: String
        let label: String
        let estimate: CaseEstimate
        let result: CaseResult

        /// The counter per operation, or the workload's own figure of that name (median over
        /// the processes), or nil.
        func counter(_ name: String) -> Double? { result.counterMedian(name) ?? result.figureMedian(name)?.value }

        var timing: String {
            let interval = estimate.repeatInterval
            let repeatRun = Figures.interval(interval)
            let modes = estimate.modes.isEmpty ? "" : "; modes: \(Figures.modes(estimate.modes))"
            return "\(label): \(Figures.value(estimate.value)) ns (a repeat: \(repeatRun))\(modes)"
        }
    }

    /// The case of `workload` on `backend` whose parameters include all of `parameters`, under
    /// the system allocator, with samples; otherwise the reason it cannot be used.
    func find(_ spec: CaseSpec, label: String) -> Result<Measured, Missing> {
        let matching = cases.filter { $0.benchmarkCase.allocator == .system && spec.matches($0.benchmarkCase) }
        guard let result = matching.first else {
            return .failure(Missing("\(spec) was not run (it is in the quick suite)"))
        }
        guard let estimate = estimates[result.benchmarkCase.id] else {
            return .failure(Missing("\(result.benchmarkCase.id) has no samples: \(result.status)"))
        }
        return .success(Measured(id: result.benchmarkCase.id, label: label, estimate: estimate, result: result))
    }

    /// Why `counter` has no value in `measured`: the run's reason, or "not recorded".
    func whyUnavailable(_ counter: String) -> String {
        counterAvailability[counter].map {
            $0.isAvailable ? "\(counter) was not recorded for this case" : "\(counter) \($0)"
        }
            ?? "\(counter) was not recorded in this run"
    }

    struct Missing: Error { let reason: String; init(_ reason: String) { self.reason = reason } }
}

/// Which of two figures of the same run is smaller: an answer only where a repeat run would give
/// the same one. Two ways to know, either enough:
/// - their processes interleave too little for chance: Mann–Whitney's exact rank test at 5%
///   (`RankTest`), one value per process, no assumption about their distribution. With 4 against
///   4 processes it takes every process of one below every process of the other (2 / C(8, 4) =
///   2.9%); with 5 against 5, one process out of place is allowed;
/// - their comparison intervals (`CaseEstimate.comparisonInterval`: the repeat interval without
///   the sitting's spread, which moves both cases of a run together) do not overlap, where
///   neither case's processes fall into modes.
///
/// A case whose processes fall into modes (`CaseEstimate.modes`) has no interval that says
/// anything: one over both modes would call a case nine times slower in every process "a tie",
/// and its median moves to whichever mode has more processes in a given run. Unless the rank
/// test decides, such a case is compared like with like, mode by mode: fast mode against fast
/// mode and slow against slow when both have as many modes and each pair's shares of processes
/// could be the same (their Wilson intervals overlap), every mode of one against every mode of
/// the other otherwise. A fast mode of 3 processes in 19 is not the counterpart of a main mode of
/// 16 in 17: paired by rank, a stray slow process of the second became the first's main mode's
/// counterpart, and the first, slower in 16 of its 19 processes, was called faster. The same answer
/// from every pairing is the answer; a clear answer each way is `dependsOnMode` (say both);
/// anything else is `neither`.
/// The claims, the report's answers and its tables all decide by it.
public enum Faster: Equatable, Sendable {
    case first, second, neither
    /// One mode of the first is faster, another slower: which is faster depends on the mode a
    /// process falls into.
    case dependsOnMode

    public init(_ first: CaseEstimate, _ second: CaseEstimate) {
        let ranks = RankTest.compare(first.values, second.values)
        if ranks.pValue < Self.level {
            self = ranks.firstIsLower ? .first : .second
        } else if first.modes.isEmpty && second.modes.isEmpty {
            self = Self.byIntervals(first, second)
        } else {
            let mine = first.modes.isEmpty ? [first] : first.modes.map(\.estimate)
            let theirs = second.modes.isEmpty ? [second] : second.modes.map(\.estimate)
            let pairs =
                Self.counterparts(first.modes, second.modes)
                ? Array(zip(mine, theirs)) : mine.flatMap { one in theirs.map { (one, $0) } }
            let verdicts = Set(pairs.map { Self.byIntervals($0, $1) })
            if verdicts == [.first] {
                self = .first
            } else if verdicts == [.second] {
                self = .second
            } else if verdicts.contains(.first) && verdicts.contains(.second) {
                self = .dependsOnMode
            } else {
                self = .neither
            }
        }
    }

    /// Whether the modes pair up by rank: as many on each side, and each pair's shares alike.
    private static func counterparts(_ mine: [ProcessMode], _ theirs: [ProcessMode]) -> Bool {
        mine.count == theirs.count
            && zip(mine, theirs).allSatisfy { $0.shareInterval.overlaps($1.shareInterval) }
    }

    /// The rank test's level.
    static let level = 0.05

    /// Two cases of one mode each, by their comparison intervals.
    private static func byIntervals(_ first: CaseEstimate, _ second: CaseEstimate) -> Faster {
        if first.comparisonInterval.upper < second.comparisonInterval.lower {
            .first
        } else if second.comparisonInterval.upper < first.comparisonInterval.lower {
            .second
        } else {
            .neither
        }
    }

    /// Whether the answer is that one is faster.
    public var isClear: Bool { self == .first || self == .second }
}

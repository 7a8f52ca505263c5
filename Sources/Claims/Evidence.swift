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
        cases = run.cases
        counterAvailability = run.counterAvailability
        self.estimates = estimates ?? RunEstimates(run.cases)
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
            return "\(label): \(Figures.value(estimate.value)) ns (a repeat: \(repeatRun))"
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
/// - their comparison intervals (`CaseEstimate.comparisonInterval`: the repeat interval without
///   the sitting's spread, which moves both cases of a run together) do not overlap;
/// - every process of one is below every process of the other, with processes enough on each
///   side that this happens by chance less than 5 times in 100 when neither is faster
///   (Mann–Whitney's exact test at its extreme: 2 / C(m + n, m); 4 against 4 processes, or 5
///   against 3). An interval over the logarithms assumes one mode; a case whose processes fall
///   into a fast and a slow mode has a wide one, which would call a case nine times slower in
///   every process "a tie".
/// The claims, the report's answers and its tables all decide by it.
public enum Faster: Equatable, Sendable {
    case first, second, neither

    public init(_ first: CaseEstimate, _ second: CaseEstimate) {
        if first.comparisonInterval.upper < second.comparisonInterval.lower {
            self = .first
        } else if second.comparisonInterval.upper < first.comparisonInterval.lower {
            self = .second
        } else if Self.separated(first.values, below: second.values) {
            self = .first
        } else if Self.separated(second.values, below: first.values) {
            self = .second
        } else {
            self = .neither
        }
    }

    /// The chance level a separation must beat.
    static let level = 0.05

    /// True when every value of `lower` is below every value of `upper` (both ascending) and the
    /// counts make that rare by chance: 2 / C(m + n, m) < `level`.
    static func separated(_ lower: [Double], below upper: [Double]) -> Bool {
        guard let highest = lower.last, let lowest = upper.first, highest < lowest else { return false }
        return 2 / binomial(lower.count + upper.count, lower.count) < level
    }

    static func binomial(_ n: Int, _ k: Int) -> Double {
        (0..<k).reduce(1.0) { product, i in product * Double(n - i) / Double(i + 1) }
    }
}

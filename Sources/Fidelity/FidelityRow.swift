import Gate
import Results

/// One row of a fidelity table: a pair's two figures, per unit, and whether the suite's is within
/// the bound; with jemalloc preloaded, also the bytes each allocates per operation. Each figure is
/// the median over processes of each process's figure (`CaseRecord.processNanoseconds`), with
/// the interval that compares it with another case of the same run (`CaseEstimate`): samples of
/// one process are not independent, processes are (Sources/Gate/README.md).
public struct FidelityRow: Sendable, Equatable {
    public let pair: FidelityPair
    /// The suite's figure, in ns per unit, and its interval; nil when the suite case has no record.
    public let suite: Figure?
    /// The direct reference's figure, in ns per unit, and its interval; nil without a record.
    public let direct: Figure?

    /// A figure over processes and its comparison interval (`CaseEstimate.comparisonInterval`:
    /// the two cases of a pair are compared within one run, which moves both together).
    public struct Figure: Sendable, Equatable {
        public let value: Double
        public let interval: RepeatInterval
    }

    public var suiteNanoseconds: Double? { suite?.value }
    public var directNanoseconds: Double? { direct?.value }
    /// Bytes the measuring thread allocated per operation (jemalloc's `thread.allocated`), in the
    /// suite case and in the direct case; nil where jemalloc was not preloaded.
    public let suiteAllocatedBytes: Double?
    public let directAllocatedBytes: Double?
    /// Why a figure is missing (a failure, not applicable, not run), or nil.
    public let missing: String?
    public let bound: FidelityBound

    /// The metric the allocation columns read.
    public static let allocatedBytesMetric = "jemalloc.thread-allocated-bytes"
    /// Bytes per operation the suite may allocate beyond its reference: less than the smallest
    /// allocation (8 bytes), so any allocation per operation of its own shows, while the odd
    /// allocation between samples, spread over a batch, does not.
    public static let allocationSlackBytes = 1.0

    /// suite / direct, or nil when a figure is missing.
    public var ratio: Double? {
        guard let suiteNanoseconds, let directNanoseconds, directNanoseconds > 0 else { return nil }
        return suiteNanoseconds / directNanoseconds
    }

    /// How the suite's figure stands against the bound.
    public enum Standing: String, Sendable, Equatable {
        /// The suite's median is within the bound of the direct median.
        case within = "within bound"
        /// Clearly over: the suite's interval lies wholly above the bound of the direct interval's
        /// upper end, so another run would say the same.
        case over = "over bound"
        /// Clearly under: the suite's interval lies wholly below the bound of the direct
        /// interval's lower end. The reference pays for something the suite does not, so it
        /// validates nothing until it is the plain fastest use of its runtime.
        case under = "under bound"
        /// The suite's median is outside the bound, but the two intervals leave room for it not to
        /// be: its processes disagree (scheduling-bound operations can settle into a fast or a
        /// slow mode per process, on both sides alike). More processes decide it.
        case unclear = "unclear"
        /// A figure is missing (see `missing`).
        case noFigure = "no figure"
    }

    public var standing: Standing {
        guard let suite, let direct else { return .noFigure }
        if bound.allows(suite: suite.value, direct: direct.value) { return .within }
        if suite.value > direct.value {
            return suite.interval.lower > bound.limit(forDirect: direct.interval.upper) ? .over : .unclear
        }
        return suite.interval.upper < bound.floor(forDirect: direct.interval.lower) ? .under : .unclear
    }

    /// True when both figures exist and the suite's median is within the bound.
    public var withinBound: Bool { standing == .within }

    /// The most the suite's figure may read next to this direct figure, or nil.
    public var limit: Double? { directNanoseconds.map(bound.limit(forDirect:)) }

    /// The least the suite's figure may read next to this direct figure, or nil.
    public var floor: Double? { directNanoseconds.map(bound.floor(forDirect:)) }

    /// Whether the suite allocates no more per operation than its reference (within
    /// `allocationSlackBytes`); nil where either side was not measured, or where allocations
    /// follow scheduling (`FidelityPair.allocationsComparable`).
    public var allocatesNoMore: Bool? {
        guard pair.allocationsComparable, let suiteAllocatedBytes, let directAllocatedBytes else { return nil }
        return suiteAllocatedBytes <= directAllocatedBytes + Self.allocationSlackBytes
    }

    /// The rows for every `direct` case in `results` whose pair is there too (or missing, with why).
    public static func rows(in results: [CaseResult], bound: FidelityBound = .standard) -> [FidelityRow] {
        let byID = Dictionary(results.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { first, _ in first })
        let estimates = RunEstimates(results)
        return FidelityPairs.pairs(in: results.map(\.benchmarkCase)).map { pair in
            let suiteResult = byID[pair.suiteCase.id], directResult = byID[pair.directCase.id]
            let suite = figure(of: suiteResult, units: pair.unitsPerOperation, estimates: estimates)
            let direct = figure(of: directResult, units: pair.unitsPerOperation, estimates: estimates)
            let missing = [suite.missing.map { "suite case \($0)" }, direct.missing.map { "direct case \($0)" }]
                .compactMap { $0 }.joined(separator: "; ")
            return FidelityRow(
                pair: pair, suite: suite.value, direct: direct.value,
                suiteAllocatedBytes: allocated(by: suiteResult), directAllocatedBytes: allocated(by: directResult),
                missing: missing.isEmpty ? nil : missing, bound: bound)
        }
    }

    static func figure(of result: CaseResult?, units: Int, estimates: RunEstimates) -> (
        value: Figure?, missing: String?
    ) {
        guard let result else { return (nil, "was not run") }
        if let reason = result.notApplicable { return (nil, "not applicable: \(reason)") }
        guard let estimate = estimates[result.benchmarkCase.id] else {
            return (nil, result.failures.first.map { "failed: \($0)" } ?? "has no record")
        }
        let perUnit = Double(units)
        let interval = estimate.comparisonInterval
        return (
            Figure(
                value: estimate.value / perUnit,
                interval: RepeatInterval(lower: interval.lower / perUnit, upper: interval.upper / perUnit)), nil
        )
    }

    static func allocated(by result: CaseResult?) -> Double? {
        guard let result else { return nil }
        let values = ProcessValues(result, metric: allocatedBytesMetric).values
        return values.isEmpty ? nil : SampleStatistics.percentile(values.sorted(), 0.5)
    }
}

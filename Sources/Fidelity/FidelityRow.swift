import Gate
import Harness

/// One row of a fidelity table: a pair's two figures, per unit, and whether the suite's is within
/// the bound; with jemalloc preloaded, also the bytes each allocates per operation. Each figure is
/// the median over processes of each process's median sample (or per-operation counter): samples
/// of one process are not independent, processes are (Sources/Gate/README.md).
public struct FidelityRow: Sendable, Equatable {
    public let pair: FidelityPair
    /// The suite's figure, in ns per unit; nil when the suite case has no record.
    public let suiteNanoseconds: Double?
    /// The direct reference's figure, in ns per unit; nil when the direct case has no record.
    public let directNanoseconds: Double?
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

    /// True when both figures exist and the suite's is within the bound.
    public var withinBound: Bool {
        guard let suiteNanoseconds, let directNanoseconds else { return false }
        return bound.allows(suite: suiteNanoseconds, direct: directNanoseconds)
    }

    /// The most the suite's figure may read next to this direct figure, or nil.
    public var limit: Double? { directNanoseconds.map(bound.limit(forDirect:)) }

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
        return FidelityPairs.pairs(in: results.map(\.benchmarkCase)).map { pair in
            let suiteResult = byID[pair.suiteCase.id], directResult = byID[pair.directCase.id]
            let suite = figure(of: suiteResult, units: pair.unitsPerOperation)
            let direct = figure(of: directResult, units: pair.unitsPerOperation)
            let missing = [suite.missing.map { "suite case \($0)" }, direct.missing.map { "direct case \($0)" }]
                .compactMap { $0 }.joined(separator: "; ")
            return FidelityRow(pair: pair, suiteNanoseconds: suite.value, directNanoseconds: direct.value,
                               suiteAllocatedBytes: allocated(by: suiteResult), directAllocatedBytes: allocated(by: directResult),
                               missing: missing.isEmpty ? nil : missing, bound: bound)
        }
    }

    static func figure(of result: CaseResult?, units: Int) -> (value: Double?, missing: String?) {
        guard let result else { return (nil, "was not run") }
        if let reason = result.notApplicable { return (nil, "not applicable: \(reason)") }
        let values = ProcessValues(result, metric: MetricKind.nanosecondsPerOperation).values
        guard !values.isEmpty else { return (nil, result.failures.first.map { "failed: \($0)" } ?? "has no record") }
        return (SampleStatistics.percentile(values.sorted(), 0.5) / Double(units), nil)
    }

    static func allocated(by result: CaseResult?) -> Double? {
        guard let result else { return nil }
        let values = ProcessValues(result, metric: allocatedBytesMetric).values
        return values.isEmpty ? nil : SampleStatistics.percentile(values.sorted(), 0.5)
    }
}

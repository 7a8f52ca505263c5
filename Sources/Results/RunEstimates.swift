/// Every case's `CaseEstimate` in one run, computed once: each case's processes moderated towards
/// the typical spread of its family (its workload) in the same run, or of the whole run where the
/// family has too few cases to say.
public struct RunEstimates: Sendable {
    private let byCase: [String: CaseEstimate]

    /// - Parameters:
    ///   - cases: the run's cases; those without a value in any process get no estimate.
    ///   - value: one process's value: by default its ns per operation (`processNanoseconds`).
    ///   - sittingSpread: how far a whole run moves these values together (`CaseEstimate`).
    public init(
        _ cases: [CaseResult], value: (CaseRecord) -> Double? = \.processNanoseconds,
        sittingSpread: Double = CaseEstimate.sittingSpread
    ) {
        let values = cases.map { result in result.records.compactMap(value).filter { $0 > 0 && $0.isFinite } }
        var spreadsByFamily: [String: [Double]] = [:]
        for (result, caseValues) in zip(cases, values) {
            guard let own = CaseEstimate.ownSpread(of: caseValues) else { continue }
            spreadsByFamily[result.benchmarkCase.workload, default: []].append(own)
        }
        let runPrior = SpreadPrior(ownSpreads: spreadsByFamily.values.flatMap { $0 })
        var byCase: [String: CaseEstimate] = [:]
        for (result, caseValues) in zip(cases, values) {
            let prior =
                spreadsByFamily[result.benchmarkCase.workload].flatMap { SpreadPrior(ownSpreads: $0) } ?? runPrior
            byCase[result.benchmarkCase.id] = CaseEstimate(
                values: caseValues, prior: prior, sittingSpread: sittingSpread)
        }
        self.byCase = byCase
    }

    /// The estimate of the case with this id, or nil when it has no value.
    public subscript(_ id: String) -> CaseEstimate? { byCase[id] }
}

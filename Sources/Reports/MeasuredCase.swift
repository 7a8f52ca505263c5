import Results

/// One case as the report reads it: its figures with their repeat intervals (estimated once per
/// run), and its counters and the workload's own figures as medians over the processes.
struct MeasuredCase {
    let result: CaseResult
    /// The case's time, ns per operation; nil without samples.
    let estimate: CaseEstimate?
    /// What its family ranks contenders by: the time, or the family's own figure.
    let ranking: Ranking
    /// The case's figure by `ranking`.
    let ranked: CaseEstimate?

    init(_ result: CaseResult, estimate: CaseEstimate?, ranking: Ranking, ranked: CaseEstimate?) {
        self.result = result
        self.estimate = estimate
        self.ranking = ranking
        self.ranked = ranked
    }

    /// Every case of `run`, each figure estimated against the rest of its run.
    static func all(_ run: RunResults, estimates: RunEstimates) -> [MeasuredCase] {
        let catalogue = MetricCatalogue(run)
        var rankings: [String: Ranking] = [:]
        var rankedEstimates: [String: RunEstimates] = [:]
        for workload in Set(run.cases.map(\.benchmarkCase.workload)) {
            let ranking = Ranking.of(workload, in: catalogue)
            rankings[workload] = ranking
            guard case .workloadFigure(let name) = ranking.figure else { continue }
            rankedEstimates[workload] = RunEstimates(
                run.cases.filter { $0.benchmarkCase.workload == workload },
                value: { $0.workloadMetrics?[name]?.value }, sittingSpread: 0)
        }
        return run.cases.map { result in
            let id = result.benchmarkCase.id, workload = result.benchmarkCase.workload
            let ranked = rankedEstimates[workload].map { $0[id] } ?? estimates[id]
            return MeasuredCase(result, estimate: estimates[id], ranking: rankings[workload] ?? .time, ranked: ranked)
        }
    }

    var benchmarkCase: BenchmarkCase { result.benchmarkCase }

    /// A counter per operation (median over the processes), or nil when no process measured it.
    func counter(_ name: String) -> Double? { result.counterMedian(name) }

    /// Why `name` has no value in this case, as its first process gave it.
    func unavailableReason(_ name: String) -> String? {
        result.records.lazy.compactMap { $0.unavailable[name] }.first
    }

    /// The workload's own figure (median over the processes) and its unit, or nil.
    func workloadMetric(_ name: String) -> (value: Double, unit: MetricUnit)? { result.figureMedian(name) }

    /// The names of the workload's own figures that any process reported.
    var workloadMetricNames: Set<String> { result.figureNames }
}

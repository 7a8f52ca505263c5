import Harness

/// One case as the report reads it: its statistics computed once (the bootstrap interval is the
/// costly part, and a report looks at each case several times), and its counters and the
/// workload's own figures as medians over the processes.
struct MeasuredCase {
    let result: CaseResult
    let statistics: SampleStatistics?

    init(_ result: CaseResult) {
        self.result = result
        statistics = result.statistics
    }

    var benchmarkCase: BenchmarkCase { result.benchmarkCase }

    /// A counter per operation (median over the processes), or nil when no process measured it.
    func counter(_ name: String) -> Double? {
        median(result.records.compactMap { $0.metricsPerOperation[name] })
    }

    /// Why `name` has no value in this case, as its first process gave it.
    func unavailableReason(_ name: String) -> String? {
        result.records.lazy.compactMap { $0.unavailable[name] }.first
    }

    /// The workload's own figure (median over the processes) and its unit, or nil.
    func workloadMetric(_ name: String) -> (value: Double, unit: String)? {
        let figures = result.records.compactMap { $0.workloadMetrics?[name] }
        guard let value = median(figures.map(\.value)) else { return nil }
        return (value, figures[0].unit)
    }

    /// The names of the workload's own figures that any process reported.
    var workloadMetricNames: Set<String> { Set(result.records.flatMap { $0.workloadMetrics?.keys.map { $0 } ?? [] }) }

    /// The workers the runtime really used (the first process's answer), when it said.
    var workers: Int? { result.records.lazy.compactMap(\.workers).first }

    private func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : SampleStatistics.percentile(values.sorted(), 0.5)
    }
}

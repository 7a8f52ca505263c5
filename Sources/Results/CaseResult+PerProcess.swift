/// A case's counters and the workload's own figures, one value per process and their median:
/// the one place the report, the CSV, the claims and the exports take them from.
extension CaseResult {
    /// Each process's value of counter `name` per operation, in process order; empty when no
    /// process measured it.
    public func counterPerProcess(_ name: String) -> [Double] {
        records.compactMap { $0.metricsPerOperation[name] }
    }

    /// The median over the processes of counter `name` per operation, or nil when none measured it.
    public func counterMedian(_ name: String) -> Double? { Self.median(counterPerProcess(name)) }

    /// Each process's value of the workload's own figure `name`, and its unit; nil when no
    /// process reported it.
    public func figurePerProcess(_ name: String) -> (values: [Double], unit: MetricUnit)? {
        let figures = records.compactMap { $0.workloadMetrics?[name] }
        return figures.isEmpty ? nil : (figures.map(\.value), figures[0].unit)
    }

    /// The median over the processes of the workload's own figure `name`, and its unit, or nil.
    public func figureMedian(_ name: String) -> (value: Double, unit: MetricUnit)? {
        figurePerProcess(name).flatMap { figure in Self.median(figure.values).map { ($0, figure.unit) } }
    }

    /// The counters any process measured, and the workload figures any process reported.
    public var counterNames: Set<String> { Set(records.flatMap(\.metricsPerOperation.keys)) }
    public var figureNames: Set<String> { Set(records.flatMap { $0.workloadMetrics?.keys.map { $0 } ?? [] }) }

    static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : SampleStatistics.percentile(values.sorted(), 0.5)
    }
}

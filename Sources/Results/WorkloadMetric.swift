/// One figure a workload measured itself, with its unit.
public struct WorkloadMetric: Sendable, Codable, Equatable {
    public let value: Double
    public let unit: MetricUnit

    public init(_ value: Double, unit: MetricUnit) {
        self.value = value
        self.unit = unit
    }
}

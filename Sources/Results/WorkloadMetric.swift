/// One figure a workload measured itself, with its unit ("ns", "share", "count").
public struct WorkloadMetric: Sendable, Codable, Equatable {
    public let value: Double
    public let unit: String

    public init(_ value: Double, unit: String) {
        self.value = value
        self.unit = unit
    }
}

/// A figure a workload measures itself (`WorkloadMetric`), as results files name it.
public struct FigureName: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// footprint: resident bytes per held unit; what footprint's families rank by.
    public static let residentBytesPerUnit = FigureName("footprint.resident_bytes_per_unit")
}

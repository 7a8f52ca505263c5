/// Samples outside Tukey's fences: beyond 1.5 × IQR from the quartiles is mild, beyond 3 × IQR
/// severe (Tukey, "Exploratory Data Analysis", 1977). Counted, not removed: on a busy machine
/// the slow tail is part of what a runtime costs.
public struct OutlierCounts: Sendable, Codable, Equatable {
    public let lowSevere: Int
    public let lowMild: Int
    public let highMild: Int
    public let highSevere: Int

    /// IQR multiples for the inner (mild) and outer (severe) fences.
    public static let mildFence = 1.5
    public static let severeFence = 3.0

    public var total: Int { lowSevere + lowMild + highMild + highSevere }

    /// - Precondition: `sorted` is ascending and not empty.
    public init(sorted: [Double]) {
        let q1 = SampleStatistics.percentile(sorted, 0.25)
        let q3 = SampleStatistics.percentile(sorted, 0.75)
        let iqr = q3 - q1
        var counts = (lowSevere: 0, lowMild: 0, highMild: 0, highSevere: 0)
        for sample in sorted {
            if sample < q1 - Self.severeFence * iqr {
                counts.lowSevere += 1
            } else if sample < q1 - Self.mildFence * iqr {
                counts.lowMild += 1
            } else if sample > q3 + Self.severeFence * iqr {
                counts.highSevere += 1
            } else if sample > q3 + Self.mildFence * iqr {
                counts.highMild += 1
            }
        }
        (lowSevere, lowMild, highMild, highSevere) = counts
    }

    public init(lowSevere: Int, lowMild: Int, highMild: Int, highSevere: Int) {
        (self.lowSevere, self.lowMild, self.highMild, self.highSevere) = (lowSevere, lowMild, highMild, highSevere)
    }
}

/// Summary statistics of one case's samples (one value per sample, e.g. ns per operation): a
/// description of the samples, not an estimate of the case's figure. Samples of one process are
/// not independent, so how well a figure is known comes from its processes (`CaseEstimate`).
///
/// Percentiles interpolate linearly between the two nearest order statistics (Hyndman & Fan
/// type 7, numpy's default), so a p50 of an even count is the midpoint of the middle two.
/// Outliers are classified, never dropped: a slow sample is information about the runtime.
public struct SampleStatistics: Sendable, Codable, Equatable {
    public let count: Int
    public let min: Double
    public let max: Double
    public let mean: Double
    /// Sample standard deviation (n − 1 denominator); 0 for a single sample.
    public let standardDeviation: Double
    /// Standard deviation / mean; nil when the mean is 0.
    public let coefficientOfVariation: Double?
    public let p10: Double
    public let median: Double
    public let p90: Double
    /// Median absolute deviation from the median (unscaled).
    public let medianAbsoluteDeviation: Double
    public let outliers: OutlierCounts

    /// - Precondition: `samples` is not empty and holds no NaN.
    /// - Complexity: O(n log n).
    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "statistics of an empty sample set")
        precondition(!samples.contains { $0.isNaN }, "a sample is NaN")
        let sorted = samples.sorted()
        count = sorted.count
        min = sorted.first!
        max = sorted.last!
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        let squares = sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let deviation = sorted.count > 1 ? (squares / Double(sorted.count - 1)).squareRoot() : 0
        let median = Self.percentile(sorted, 0.50)
        self.mean = mean
        standardDeviation = deviation
        coefficientOfVariation = mean == 0 ? nil : deviation / mean
        p10 = Self.percentile(sorted, 0.10)
        self.median = median
        p90 = Self.percentile(sorted, 0.90)
        medianAbsoluteDeviation = Self.percentile(sorted.map { Swift.abs($0 - median) }.sorted(), 0.50)
        outliers = OutlierCounts(sorted: sorted)
    }

    /// The `fraction` percentile of an ascending array, linear between order statistics.
    /// - Precondition: `sorted` is ascending and not empty; `0 <= fraction <= 1`.
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        precondition(!sorted.isEmpty && (0...1).contains(fraction))
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * weight
    }
}

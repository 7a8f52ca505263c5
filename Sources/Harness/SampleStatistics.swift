/// Summary statistics of one case's samples (one value per sample, e.g. ns per operation).
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
    /// Bootstrap 95% confidence interval of the median (percentile method).
    public let medianInterval: ConfidenceInterval
    public let outliers: OutlierCounts

    /// Resamples drawn for the bootstrap interval: enough that the 2.5% and 97.5% points of the
    /// resampled medians are stable to well under the interval's own width.
    public static let bootstrapResamples = 2_000
    /// The fixed seed: the same samples always give the same interval.
    public static let bootstrapSeed: UInt64 = 0x5EED_0F_BE4C4

    /// - Precondition: `samples` is not empty and holds no NaN.
    /// - Complexity: O(B · n log n) for B = `bootstrapResamples`.
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
        medianInterval = Self.bootstrapMedianInterval(sorted)
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

    private static func bootstrapMedianInterval(_ sorted: [Double]) -> ConfidenceInterval {
        guard sorted.count > 1 else { return ConfidenceInterval(lower: sorted[0], upper: sorted[0]) }
        var generator = SeededGenerator(seed: bootstrapSeed)
        var medians = [Double]()
        medians.reserveCapacity(bootstrapResamples)
        var resample = [Double](repeating: 0, count: sorted.count)
        for _ in 0..<bootstrapResamples {
            for slot in resample.indices {
                resample[slot] = sorted[Int.random(in: 0..<sorted.count, using: &generator)]
            }
            resample.sort()
            medians.append(percentile(resample, 0.5))
        }
        medians.sort()
        return ConfidenceInterval(lower: percentile(medians, 0.025), upper: percentile(medians, 0.975))
    }
}

public struct ConfidenceInterval: Sendable, Codable, Equatable {
    public let lower: Double
    public let upper: Double

    public func contains(_ value: Double) -> Bool { (lower...upper).contains(value) }
}

import Results
/// How steady this machine's timing is right now: the same fixed operation sampled repeatedly in
/// this process. Its coefficient of variation is the floor under any difference a run can
/// resolve; `bench doctor` reports it with advice.
public struct NoiseEstimate: Sendable {
    public let statistics: SampleStatistics

    /// Samples taken: enough for a stable spread, few enough to finish in about a second.
    public static let samples = 50
    public static let sampleTime: Duration = .milliseconds(10)

    /// Times `samples` batches of `operation` (calibrated to `sampleTime` each).
    public static func measure(_ operation: any MeasuredOperation) throws -> NoiseEstimate {
        let sampler = Sampler(sampleTime: sampleTime, samples: samples, warmup: .milliseconds(50))
        return NoiseEstimate(statistics: SampleStatistics(try sampler.measure(operation).nanosecondsPerOperation))
    }

    /// Coefficient of variation of the samples, in percent.
    public var variationPercent: Double { (statistics.coefficientOfVariation ?? 0) * 100 }

    /// (p90 − p10) / median, in percent: the spread most samples fall in, robust to one outlier.
    public var spreadPercent: Double { (statistics.p90 - statistics.p10) / statistics.median * 100 }

    /// Above this spread a 5% change between two runs cannot be told from noise.
    public static let noisyAbovePercent = 5.0

    public var verdict: String {
        spreadPercent <= 1 ? "quiet" : spreadPercent <= Self.noisyAbovePercent ? "some noise" : "noisy"
    }
}

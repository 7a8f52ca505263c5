import RuntimeKit

/// The child's measuring loop for one case: warm up, calibrate the batch, take the samples.
/// Counter readings bracket each sample and are kept as deltas: a counter that inherits into
/// worker threads cannot be reset once those threads have exited, so only differences are honest.
public struct Sampler: Sendable {
    public var sampleTime: Duration
    public var samples: Int
    /// Running the operation before calibrating lets the runtime start its threads, fault in its
    /// memory and fill its caches, so the first sample is not a cold-start outlier.
    public var warmup: Duration

    public static let defaultSamples = 20
    public static let defaultWarmup: Duration = .milliseconds(20)

    public init(sampleTime: Duration = Calibration.defaultSampleTime,
                samples: Int = Sampler.defaultSamples,
                warmup: Duration = Sampler.defaultWarmup) {
        precondition(samples >= 1, "at least one sample")
        precondition(sampleTime > .zero, "a sample must last some time")
        self.sampleTime = sampleTime
        self.samples = samples
        self.warmup = warmup
    }

    /// - Parameter readCounters: a cumulative snapshot of every available counter (name →
    ///   value); called twice per sample, outside the timed region.
    public func measure(
        _ operation: any MeasuredOperation,
        readCounters: () -> [String: Double] = { [:] }
    ) throws -> (batch: Int, nanosecondsPerOperation: [Double], metricsPerOperation: [String: Double]) {
        let clock = ContinuousClock()
        let warmupEnd = clock.now + warmup
        var warmupBatch = 1
        while clock.now < warmupEnd {
            try operation.run(warmupBatch)
            warmupBatch = Swift.min(warmupBatch * 2, Calibration.maximumBatch)
        }
        let batch = try Calibration.batchSize(target: sampleTime) { n in try clock.measure { try operation.run(n) } }

        var perOperation: [Double] = []
        perOperation.reserveCapacity(samples)
        var totals: [String: Double] = [:]
        for _ in 0..<samples {
            let before = readCounters()
            let elapsed = try clock.measure { try operation.run(batch) }
            let after = readCounters()
            perOperation.append(Double(elapsed.nanosecondsSaturating) / Double(batch))
            for (name, end) in after {
                if let start = before[name] { totals[name, default: 0] += end - start }
            }
        }
        let operations = Double(batch) * Double(samples)
        return (batch, perOperation, totals.mapValues { $0 / operations })
    }
}

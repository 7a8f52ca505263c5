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

    /// - Parameter counters: read twice per sample, just outside the timed region, into buffers
    ///   allocated here beforehand, so reading adds no allocation to what is measured.
    public func measure(
        _ operation: any MeasuredOperation,
        counters: (any SampleCounters)? = nil
    ) throws -> (batch: Int, nanosecondsPerOperation: [Double], metricsPerOperation: [String: Double]) {
        let clock = ContinuousClock()
        let warmupEnd = clock.now + warmup
        var warmupBatch = 1
        while clock.now < warmupEnd {
            try operation.run(warmupBatch)
            warmupBatch = Swift.min(warmupBatch * 2, Calibration.maximumBatch)
        }
        let batch = try Calibration.batchSize(target: sampleTime) { n in try clock.measure { try operation.run(n) } }

        let names = counters?.names ?? []
        let before = UnsafeMutableBufferPointer<Double>.allocate(capacity: names.count)
        let after = UnsafeMutableBufferPointer<Double>.allocate(capacity: names.count)
        defer { before.deallocate(); after.deallocate() }
        var totals = [Double](repeating: 0, count: names.count)
        var perOperation = [Double](repeating: 0, count: samples)
        operation.beginSamples()
        for sample in 0..<samples {
            counters?.read(into: before)
            let elapsed = try clock.measure { try operation.run(batch) }
            counters?.read(into: after)
            perOperation[sample] = Double(elapsed.nanosecondsSaturating) / Double(batch)
            for slot in 0..<names.count { totals[slot] += after[slot] - before[slot] }  // NaN taints a metric for good
        }
        let operations = Double(batch) * Double(samples)
        var metrics: [String: Double] = [:]
        for (slot, name) in names.enumerated() where !totals[slot].isNaN { metrics[name] = totals[slot] / operations }
        return (batch, perOperation, metrics)
    }
}

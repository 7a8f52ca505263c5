import Results
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
    /// A sample this many times longer than `sampleTime` shrinks the batch of the samples after it.
    public static let overrunFactor = 4.0
    public static let defaultWarmup: Duration = .milliseconds(20)

    public init(
        sampleTime: Duration = Calibration.defaultSampleTime,
        samples: Int = Sampler.defaultSamples,
        warmup: Duration = Sampler.defaultWarmup
    ) {
        precondition(samples >= 1, "at least one sample")
        precondition(sampleTime > .zero, "a sample must last some time")
        self.sampleTime = sampleTime
        self.samples = samples
        self.warmup = warmup
    }

    /// - Parameter counters: read twice per sample, just outside the timed region, into buffers
    ///   allocated here beforehand, so reading adds no allocation to what is measured.
    /// - Parameter profile: opened just before the first sample and closed after the last.
    /// - Parameter threads: read after every sample, outside the timed batch and the counters'
    ///   readings.
    public func measure(
        _ operation: any MeasuredOperation,
        counters: (any SampleCounters)? = nil,
        profile: ProfileWindow? = nil,
        threads: LiveThreads? = nil
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
        var operations = 0.0
        var sampleBatch = batch
        operation.beginSamples()
        profile?.begin()
        defer { profile?.end() }
        for sample in 0..<samples {
            counters?.read(into: before)
            let elapsed = try clock.measure { try operation.run(sampleBatch) }
            counters?.read(into: after)
            threads?.observe()
            perOperation[sample] = Double(elapsed.nanosecondsSaturating) / Double(sampleBatch)
            operations += Double(sampleBatch)
            for slot in 0..<names.count { totals[slot] += after[slot] - before[slot] }  // NaN taints a metric for good
            sampleBatch = Self.batch(after: elapsed, of: sampleBatch, target: sampleTime)
        }
        var metrics: [String: Double] = [:]
        for (slot, name) in names.enumerated() where !totals[slot].isNaN { metrics[name] = totals[slot] / operations }
        return (batch, perOperation, metrics)
    }

    /// The batch for the next sample: the same, unless this one overran `target` by
    /// `overrunFactor`, in which case one scaled to last `target` at the speed just seen.
    ///
    /// An operation can slow down by orders of magnitude after calibration: two threads
    /// contending for a serial queue with empty sections run either with one thread keeping the
    /// queue or with every section a hand-off through the pool, and a batch calibrated in the fast
    /// mode can make a sample in the slow one long enough to run the child past its deadline.
    public static func batch(after elapsed: Duration, of batch: Int, target: Duration) -> Int {
        let took = Double(elapsed.nanosecondsSaturating), wanted = Double(target.nanosecondsSaturating)
        guard took > wanted * overrunFactor else { return batch }
        return Swift.max(1, Int(Double(batch) * wanted / took))
    }
}

import Results
/// Chooses how many operations one sample runs, so that a sample lasts long enough for the
/// clock's resolution and the cost of reading counters to vanish in it.
public enum Calibration {
    /// Default minimum duration of one sample.
    public static let defaultSampleTime: Duration = .milliseconds(10)
    /// Never more than this many operations per sample, so a near-free operation (or a
    /// mis-measured one that reads as 0 ns) cannot make a sample run for ever.
    public static let maximumBatch = 1 << 34
    /// How much longer than the target to aim, so that noise in the probe does not leave
    /// samples just under the target.
    static let headroom = 1.2

    /// The batch size: `timeBatch(n)` runs n operations and returns how long they took. Doubles
    /// n from 1 until a batch takes at least a tenth of the target (or the maximum is reached),
    /// then scales to the target from that measurement.
    /// - Complexity: about log2(target / cost of one operation) probe batches, whose total time
    ///   is under a fifth of the target.
    public static func batchSize(target: Duration = defaultSampleTime, timeBatch: (Int) throws -> Duration) rethrows
        -> Int
    {
        precondition(target > .zero, "a sample must last some time")
        var batch = 1
        while true {
            let elapsed = try timeBatch(batch)
            if elapsed * 10 >= target || batch >= maximumBatch {
                guard elapsed > .zero else { return maximumBatch }
                let scale = (target / elapsed) * headroom
                return Swift.min(maximumBatch, Swift.max(1, Int((Double(batch) * scale).rounded(.up))))
            }
            batch *= 2
        }
    }
}

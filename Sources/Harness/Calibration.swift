import Results
import RuntimeKit

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
    /// How many confirming runs calibration makes at most before it settles for the last batch.
    static let maximumConfirmations = 8
    /// A short confirmation grows the batch by at least this, and at most by `maximumGrowth`.
    static let minimumGrowth = 2.0
    static let maximumGrowth = 16.0

    /// The batch size: `timeBatch(n)` runs n operations and returns how long they took. Doubles
    /// n from 1 until a batch takes at least a tenth of the target (or the maximum is reached),
    /// then runs the batch scaled to the target (or the probe again, if it lasted the target), and
    /// grows it while such a run falls short.
    ///
    /// The confirmation is there because a probe can cost more than its operations: a run that
    /// wakes a thread pays for the wake once per run, and on a loaded machine that wake, or a
    /// preemption, can take milliseconds. Scaled from such a probe, the batch was once 3 calls of
    /// a 25 ns actor call (nio-global with every CPU busy): samples of 36 µs that measured the
    /// wake, not the call. Growth after a short run follows the marginal cost between the last
    /// two runs, which a cost paid once per run does not inflate.
    /// - Complexity: about log2(target / cost of one operation) probe batches, whose total time
    ///   is under a fifth of the target, then one run of about the target when nothing disturbs it.
    public static func batchSize(target: Duration = defaultSampleTime, timeBatch: (Int) throws -> Duration) rethrows
        -> Int
    {
        precondition(target > .zero, "a sample must last some time")
        var batch = 1
        var elapsed = try timeBatch(batch)
        var previous = (batch: 0, elapsed: Duration.zero)
        while elapsed * 10 < target && batch < maximumBatch {
            previous = (batch, elapsed)
            batch *= 2
            elapsed = try timeBatch(batch)
        }
        // A probe that lasted the target is run again as it is: a stall can make one run of a
        // few microseconds last milliseconds.
        for _ in 0..<maximumConfirmations where batch < maximumBatch {
            let next = elapsed >= target ? batch : grown(batch, took: elapsed, after: previous, target: target)
            previous = (batch, elapsed)
            batch = next
            elapsed = try timeBatch(batch)
            if elapsed >= target { break }
        }
        return batch
    }

    /// The batch to try after `batch` took `elapsed`, short of `target`: the batch that the cost
    /// per operation seen since the run before (`previous`) says reaches the target with
    /// headroom, kept within `minimumGrowth`…`maximumGrowth` times this one, so that a noisy
    /// difference between two runs neither stalls the search nor makes one run endless.
    static func grown(
        _ batch: Int, took elapsed: Duration, after previous: (batch: Int, elapsed: Duration), target: Duration
    ) -> Int {
        let took = Double(elapsed.nanosecondsSaturating)
        let added = Double(batch - previous.batch)
        let marginal = (took - Double(previous.elapsed.nanosecondsSaturating)) / added
        let wanted = Double(target.nanosecondsSaturating) * headroom
        var growth = maximumGrowth
        if added > 0 && marginal > 0 { growth = (Double(batch) + (wanted - took) / marginal) / Double(batch) }
        growth = Swift.min(maximumGrowth, Swift.max(minimumGrowth, growth))
        return Swift.min(maximumBatch, Int((Double(batch) * growth).rounded(.up)))
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import Testing

/// The sampler keeps to its time when an operation slows down after calibration.
@Suite("sampler: a batch that overruns shrinks")
struct SamplerTests {
    /// Costs a few nanoseconds per operation until the samples begin, then 1 ms (capped at 50 ms
    /// per run): the slowdown a lock convoy that forms after calibration produces. Records the
    /// batch of every run from then on.
    final class SlowsDown: MeasuredOperation {
        private var sampling = false
        private var spun = 0
        /// Operations run before the samples (calibration and warm-up).
        private(set) var unsampled = 0
        private(set) var sampledBatches: [Int] = []

        func run(_ count: Int) throws {
            guard sampling else {
                for i in 0..<count { spun &+= i }  // a few ns per operation
                unsampled += count
                return
            }
            sampledBatches.append(count)
            usleep(UInt32(min(count, 50) * 1_000))
        }

        func beginSamples() { sampling = true }
        func finish() throws { withExtendedLifetime(spun) {} }
    }

    @Test("after a sample 4× over its time, the next samples use a batch scaled to the speed seen")
    func overrunShrinksTheBatch() throws {
        // The premise: calibration of a nanosecond operation gives a batch of 9 or more, so its
        // first sample (9 ms or more of sleep) overruns 2 ms by 4×. Only a preemption of the
        // calibration itself can make the batch smaller; then measure again, a few times at most.
        var attempt = 0
        var operation = SlowsDown()
        var measured = try Sampler(sampleTime: .milliseconds(2), samples: 4, warmup: .milliseconds(1)).measure(
            operation)
        while measured.batch < 9 && attempt < 5 {
            attempt += 1
            operation = SlowsDown()
            measured = try Sampler(sampleTime: .milliseconds(2), samples: 4, warmup: .milliseconds(1)).measure(
                operation)
        }
        try #require(measured.batch >= 9, "calibration kept giving batches under 9")
        let batches = operation.sampledBatches
        #expect(operation.unsampled > 0, "calibration and warm-up ran the operation before the samples")
        try #require(batches.count == 4)
        #expect(batches[0] == measured.batch)
        // Sleep only ever lasts longer than asked, so the first sample is at least 4.5× its time.
        #expect(batches[1] * 4 < batches[0], "\(batches)")
        #expect(batches.dropFirst().allSatisfy { $0 < batches[0] }, "\(batches)")
    }

    @Test("the batch stays as it is while samples keep to their time")
    func keptBatch() {
        #expect(Sampler.batch(after: .milliseconds(30), of: 1_000, target: .milliseconds(10)) == 1_000)
        #expect(Sampler.batch(after: .milliseconds(100), of: 1_000, target: .milliseconds(10)) == 100)
        #expect(Sampler.batch(after: .seconds(100), of: 1_000, target: .milliseconds(10)) == 1)
    }
}

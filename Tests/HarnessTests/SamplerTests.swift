#if canImport(Glibc)
import Glibc
#endif
import Harness
import Testing

/// The sampler keeps to its time when an operation slows down after calibration.
@Suite("sampler: a batch that overruns shrinks")
struct SamplerTests {
    /// Sleeps 1 µs per operation until the samples begin, 20 µs after: the slowdown a lock convoy
    /// that forms after calibration produces. Records the batch of every run after that point.
    final class SlowsDown: MeasuredOperation {
        private var sampling = false
        private(set) var sampledBatches: [Int] = []

        func run(_ count: Int) throws {
            if sampling { sampledBatches.append(count) }
            usleep(UInt32(min(count * (sampling ? 20 : 1), 5_000_000)))
        }

        func beginSamples() { sampling = true }
        func finish() throws {}
    }

    @Test("after a sample 4× over its time, the next samples use a batch scaled to the speed seen")
    func overrunShrinksTheBatch() throws {
        let operation = SlowsDown()
        let sampler = Sampler(sampleTime: .milliseconds(2), samples: 5, warmup: .milliseconds(2))
        let measured = try sampler.measure(operation)
        let batches = operation.sampledBatches
        try #require(batches.count == 5)
        // The first sample ran the calibrated batch at 20× the calibrated cost: at least 20× its
        // time whatever usleep's overhead, so the second must be well under a quarter of it.
        #expect(batches[0] == measured.batch)
        #expect(batches[1] * 4 < batches[0], "\(batches)")
        #expect(measured.nanosecondsPerOperation.allSatisfy { $0 >= 20_000 }, "every sampled operation slept 20 µs or more")
    }

    @Test("the batch stays as it is while samples keep to their time")
    func keptBatch() {
        #expect(Sampler.batch(after: .milliseconds(30), of: 1_000, target: .milliseconds(10)) == 1_000)
        #expect(Sampler.batch(after: .milliseconds(100), of: 1_000, target: .milliseconds(10)) == 100)
        #expect(Sampler.batch(after: .seconds(100), of: 1_000, target: .milliseconds(10)) == 1)
    }
}

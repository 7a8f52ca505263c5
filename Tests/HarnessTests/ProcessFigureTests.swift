import Harness
import Results
import Testing

/// One figure per process: its median sample, or the mean of its samples when they switched modes.
@Suite("CaseRecord.processNanoseconds: a median, or the mean of a process that switched modes")
struct ProcessFigureTests {
    static func record(_ samples: [Double]) -> CaseRecord { ModeSwitchingTests.record(samples) }

    @Test("steady samples, or one interrupted sample: the median")
    func median() {
        #expect(Self.record([10, 12, 11, 13]).processNanoseconds == 11.5)
        #expect(Self.record([25, 26, 27, 2_500, 26]).processNanoseconds == 26)
        #expect(Self.record([]).processNanoseconds == nil)
    }

    @Test("a slow mode of two samples or more, even a minority: the mean, the process's time over its operations")
    func switched() {
        // libdispatch's contended sync in one process of 2026-12-04: 7 samples near 27 ns, 3 slow.
        let samples: [Double] = [538.1, 25.4, 2_006.0, 3_278.6, 28.8, 26.9, 26.5, 26.4, 26.5, 29.2]
        let figure = Self.record(samples).processNanoseconds
        #expect(figure == samples.reduce(0, +) / 10)
        #expect((figure ?? 0) > 600, "the median (27.9 ns) would leave out the 2.0 and 3.3 µs samples")
        #expect(Self.record([140, 1_500, 138, 1_620]).processNanoseconds == 849.5)
    }

    @Test("the run's estimates take that figure")
    func usedEverywhere() throws {
        var result = CaseResult(
            benchmarkCase: BenchmarkCase(workload: "w", backend: "switching", parameters: [], allocator: .system))
        result.records = [Self.record([140, 1_500, 138, 1_620])]
        let estimate = try #require(RunEstimates([result])[result.benchmarkCase.id])
        #expect(abs(estimate.value - 849.5) < 1e-9)
    }
}

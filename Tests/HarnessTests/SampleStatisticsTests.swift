import Harness
import Results
import Testing

/// Expected values computed independently with numpy (np.percentile, linear interpolation;
/// np.std with ddof=1) for the same samples.
@Suite("SampleStatistics against numpy")
struct SampleStatisticsTests {
    static let samples: [Double] = [12.0, 10.5, 11.0, 10.0, 13.5, 10.2, 55.0, 10.8, 11.2, 9.9]

    @Test("location, spread and percentiles")
    func summary() {
        let stats = SampleStatistics(Self.samples)
        #expect(stats.count == 10)
        #expect(stats.min == 9.9 && stats.max == 55.0)
        #expect(abs(stats.mean - 15.41) < 1e-9)
        #expect(abs(stats.standardDeviation - 13.952096616637947) < 1e-9)
        #expect(abs(stats.p10 - 9.99) < 1e-9)
        #expect(abs(stats.median - 10.9) < 1e-9)
        #expect(abs(stats.p90 - 17.65) < 1e-9)
        #expect(abs(stats.medianAbsoluteDeviation - 0.8) < 1e-9)
        #expect(abs(stats.coefficientOfVariation! - 13.952096616637947 / 15.41) < 1e-12)
    }

    @Test("Tukey fences: 55 is a severe high outlier, 13.5 is inside the inner fence")
    func outliers() {
        // q1 = 10.275, q3 = 11.8, IQR = 1.525: inner fence 14.0875, outer fence 16.375.
        #expect(
            SampleStatistics(Self.samples).outliers
                == OutlierCounts(lowSevere: 0, lowMild: 0, highMild: 0, highSevere: 1))
        let mild = Self.samples.map { $0 == 55.0 ? 15.0 : $0 }
        #expect(SampleStatistics(mild).outliers.highMild == 1)
    }

    @Test("one sample: no spread")
    func single() {
        let stats = SampleStatistics([42])
        #expect(stats.standardDeviation == 0 && stats.medianAbsoluteDeviation == 0)
        #expect(stats.median == 42)
        #expect(stats.outliers.total == 0)
    }

    @Test("a zero mean has no coefficient of variation")
    func zeroMean() {
        #expect(SampleStatistics([0, 0, 0]).coefficientOfVariation == nil)
    }

    @Test("SplitMix64 matches the reference sequence for seed 0")
    func generator() {
        // First outputs of the reference splitmix64.c with state 0.
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}

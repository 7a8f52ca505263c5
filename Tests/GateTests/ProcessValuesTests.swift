import Gate
import Results
import Testing

/// The gate's one value per process is the process's figure, `CaseRecord.processNanoseconds`.
@Suite("ProcessValues: ns-per-op is each process's figure")
struct ProcessValuesTests {
    @Test("a steady process gives its median sample; one whose samples switched modes, their mean")
    func processFigures() {
        let benchmarkCase = BenchmarkCase(workload: "w", backend: "b", parameters: [], allocator: .system)
        var result = CaseResult(benchmarkCase: benchmarkCase)
        result.records = [[10, 12, 11, 13], [140, 1_500, 138, 1_620]].enumerated().map { repetition, samples in
            CaseRecord(
                caseID: benchmarkCase.id, repetition: repetition, batch: 100, nanosecondsPerOperation: samples,
                metricsPerOperation: [:], unavailable: [:], cpus: [0, 1])
        }
        #expect(ProcessValues(result, metric: Metric.nanosecondsPerOperation.name).values == [11.5, 849.5])
    }
}

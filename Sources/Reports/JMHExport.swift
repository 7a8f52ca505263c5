import FoundationEssentials
import Results

/// jmh-result.json: the run in the JSON layout of JMH (the Java Microbenchmark Harness), which JMH
/// visualizers and CI plugins read: an array with one object per case that has samples.
///
/// The mapping, where JMH's meaning and ours differ:
/// - `benchmark` is `runtimebench.<workload>.<backend>`; the case's parameters and its allocator
///   are `params`, so one benchmark name spans its parameter sets, as in JMH.
/// - `mode` is `avgt` (average time per operation) in `ns/op`; a `fork` is one child process
///   and an iteration one sample, so `rawData` holds each process's samples.
/// - `score` is the case's figure, the median over processes of each process's figure
///   (JMH reports the mean of all samples), `scoreConfidence` its repeat interval (where 95 of
///   100 repeat runs' figures should fall, `CaseEstimate`), and `scoreError` half its width; both
///   "NaN" (a string, as JMH writes it) for a case measured in one process.
/// - `threads` is 1: one thread measures; contending threads, where a workload has them, are a
///   parameter.
/// - `secondaryMetrics` are the counters per operation and the workload's own figures: `score`
///   the median over the processes, `scoreConfidence` their least and greatest value, `rawData`
///   one value per process. A counter that was not measured is absent, never 0.
enum JMHExport {
    static let fileName = "jmh-result.json"

    struct Benchmark: Encodable {
        let benchmark: String
        let mode = "avgt"
        let threads = 1
        let forks: Int
        let warmupIterations = 0
        let measurementIterations: Int
        let measurementTime: String
        let measurementBatchSize: Int
        let params: [String: String]
        let primaryMetric: Metric
        let secondaryMetrics: [String: Metric]
    }

    struct Metric: Encodable {
        let score: Double
        let scoreError: Double
        let scoreConfidence: [Double]
        let scorePercentiles: [String: Double]
        let scoreUnit: String
        let rawData: [[Double]]
    }

    /// The percentiles JMH writes, as its keys spell them.
    static let percentiles: [(key: String, fraction: Double)] = [
        ("0.0", 0), ("50.0", 0.5), ("90.0", 0.9), ("95.0", 0.95), ("99.0", 0.99), ("99.9", 0.999), ("99.99", 0.9999),
        ("99.999", 0.99999), ("99.9999", 0.999999), ("100.0", 1),
    ]

    static func encode(_ run: RunResults, cases: [MeasuredCase]) throws -> String {
        let catalogue = MetricCatalogue(run)
        let benchmarks = cases.compactMap { measured -> Benchmark? in
            guard let estimate = measured.estimate else { return nil }
            let c = measured.benchmarkCase
            let records = measured.result.records
            let all = records.flatMap(\.nanosecondsPerOperation).sorted()
            let interval = estimate.repeatInterval
            var params = Dictionary(c.parameters.map { ($0.name, $0.value) }) { first, _ in first }
            params["allocator"] = c.allocator.rawValue
            // One process bounds nothing: JMH writes "NaN" for an error it cannot compute.
            let bounded = interval.upper.isFinite
            let primary = Metric(
                score: estimate.value, scoreError: bounded ? (interval.upper - interval.lower) / 2 : .nan,
                scoreConfidence: bounded ? [interval.lower, interval.upper] : [.nan, .nan],
                scorePercentiles: Dictionary(
                    uniqueKeysWithValues: percentiles.map { ($0.key, SampleStatistics.percentile(all, $0.fraction)) }),
                scoreUnit: "ns/op", rawData: records.map(\.nanosecondsPerOperation))
            var secondary: [String: Metric] = [:]
            // A counter the results file does not describe has no unit to give JMH: left out.
            for name in measured.result.counterNames {
                guard let metric = catalogue[name] else { continue }
                secondary[name] = perProcess(measured.result.counterPerProcess(name), unit: metric.unit.jmhSpelling)
            }
            for name in measured.workloadMetricNames {
                guard let figure = measured.result.figurePerProcess(name) else { continue }
                secondary[name] = perProcess(figure.values, unit: figure.unit.rawValue)
            }
            return Benchmark(
                benchmark: "runtimebench.\(c.workload).\(c.backend)", forks: records.count,
                measurementIterations: records.map(\.nanosecondsPerOperation.count).max() ?? 0,
                measurementTime: "\(Figures.value(Double(run.sampleTimeNanoseconds) / 1e6)) ms",
                measurementBatchSize: records[0].batch, params: params, primaryMetric: primary,
                secondaryMetrics: secondary)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return String(decoding: try encoder.encode(benchmarks), as: UTF8.self) + "\n"
    }

    /// A figure with one value per process.
    static func perProcess(_ values: [Double], unit: String) -> Metric {
        let sorted = values.sorted()
        let median = SampleStatistics.percentile(sorted, 0.5)
        return Metric(
            score: median, scoreError: (sorted.last! - sorted.first!) / 2,
            scoreConfidence: [sorted.first!, sorted.last!],
            scorePercentiles: ["0.0": sorted.first!, "50.0": median, "100.0": sorted.last!], scoreUnit: unit,
            rawData: values.map { [$0] })
    }
}

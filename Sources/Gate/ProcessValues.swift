import Results

/// One figure per process (per repetition) of a case for one metric: what the gate's tests treat
/// as independent observations. Samples inside one process share its memory layout, its threads'
/// placement and its share of the machine, so they are not independent; processes are.
public struct ProcessValues: Sendable, Equatable {
    /// Repetition number → the process's value.
    public let byRepetition: [Int: Double]
    /// Why the metric has no value in some process (the first reason given), or nil.
    public let unavailable: String?

    public var values: [Double] { byRepetition.keys.sorted().map { byRepetition[$0]! } }

    /// ns-per-op: each process's figure (`CaseRecord.processNanoseconds`); any other metric: its
    /// per-operation delta over every sample of the process.
    public init(_ result: CaseResult, metric: String) {
        var values: [Int: Double] = [:]
        var reason: String?
        for record in result.records {
            if metric == Metric.nanosecondsPerOperation.name {
                guard let figure = record.processNanoseconds else { continue }
                values[record.repetition] = figure
            } else if let value = record.metricsPerOperation[metric], value.isFinite {
                values[record.repetition] = value
            } else if reason == nil {
                reason = record.unavailable[metric] ?? "not recorded"
            }
        }
        byRepetition = values
        unavailable = reason
    }

    public init(byRepetition: [Int: Double], unavailable: String? = nil) {
        self.byRepetition = byRepetition
        self.unavailable = unavailable
    }

    /// Every metric any process of the case recorded, ns-per-op first, then by name.
    public static func metrics(of result: CaseResult) -> [String] {
        let counters = Set(result.records.flatMap { Array($0.metricsPerOperation.keys) + Array($0.unavailable.keys) })
        return [Metric.nanosecondsPerOperation.name] + counters.sorted()
    }
}

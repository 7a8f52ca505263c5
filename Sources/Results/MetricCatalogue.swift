/// The metrics a run describes, by name: what its results file carries (`RunResults.metrics`),
/// merged for a comparison of two runs. A metric recorded but not described here is unknown, and
/// readers say so instead of guessing its kind from its name.
public struct MetricCatalogue: Sendable, Equatable {
    /// In the order described, each name once (the first description wins).
    public let metrics: [Metric]
    private let byName: [String: Metric]

    public init(_ metrics: [Metric]) {
        var byName: [String: Metric] = [:]
        var ordered: [Metric] = []
        for metric in metrics where byName[metric.name] == nil {
            byName[metric.name] = metric
            ordered.append(metric)
        }
        self.metrics = ordered
        self.byName = byName
    }

    /// The run's own catalogue, with the samples' ns/op, which every run measures.
    public init(_ run: RunResults) { self.init([.nanosecondsPerOperation] + (run.metrics ?? [])) }

    public subscript(name: String) -> Metric? { byName[name] }

    /// Both catalogues: this one's description of a name wins over `other`'s.
    public func merged(with other: MetricCatalogue) -> MetricCatalogue { MetricCatalogue(metrics + other.metrics) }

    /// Why `name` cannot be read: no description of it in the results file.
    public static func undescribed(_ name: String) -> String {
        "`\(name)` is not described in the results file (no unit or kind): written by a bench that did not know it"
    }
}

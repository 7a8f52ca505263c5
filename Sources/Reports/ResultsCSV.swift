import Results

/// results.csv: tidy, one row per case and metric, columns in a fixed order, RFC 4180 quoting.
/// A metric that could not be measured has an empty value and its reason in `unavailable`, never
/// a 0. Spreadsheet and dataframe friendly: filter by `metric`, pivot by `backend`.
///
/// `ns_per_op` is the case's figure (the median over processes of each process's figure)
/// and the only row with `repeat95_low` and `repeat95_high`: where 95 of 100 repeat runs' figures
/// should fall (`CaseEstimate`). The `ns_per_op.*` rows describe the pooled samples (median, mean,
/// p10, ...); they have no interval, since samples of one process are not independent.
public enum ResultsCSV {
    public static let columns = [
        "case_id", "workload", "backend", "parameters", "allocator", "status",
        "metric", "unit", "value", "repeat95_low", "repeat95_high", "samples", "repetitions", "unavailable",
    ]

    /// - Parameter estimates: the run's estimates, when the caller has them already.
    public static func encode(_ run: RunResults, estimates: RunEstimates? = nil) -> String {
        let estimates = estimates ?? RunEstimates(run.cases)
        // Each counter's unit as its source describes it ("ns" for task-clock, "bytes", "events");
        // "count" only for a counter the file does not describe.
        let catalogue = MetricCatalogue(run)
        func unit(_ name: String) -> String { catalogue[name]?.unit.rawValue ?? MetricUnit.count.rawValue }
        var lines = [row(columns)]
        for result in run.cases {
            let c = result.benchmarkCase
            let parameters = c.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
            let prefix = [c.id, c.workload, c.backend, parameters, c.allocator.rawValue, result.status]
            let samples = "\(result.records.reduce(0) { $0 + $1.nanosecondsPerOperation.count })"
            let repetitions = "\(result.records.count)"
            guard let stats = result.statistics, let estimate = estimates[c.id] else {
                lines.append(row(prefix + ["ns_per_op", "ns", "", "", "", samples, repetitions, result.status]))
                continue
            }
            let interval = estimate.repeatInterval
            lines.append(
                row(
                    prefix + [
                        "ns_per_op", "ns", number(estimate.value), number(interval.lower), number(interval.upper),
                        samples, repetitions, "",
                    ]))
            let timing: [(String, Double)] = [
                ("ns_per_op.median", stats.median), ("ns_per_op.mean", stats.mean),
                ("ns_per_op.p10", stats.p10), ("ns_per_op.p90", stats.p90),
                ("ns_per_op.min", stats.min), ("ns_per_op.max", stats.max),
                ("ns_per_op.mad", stats.medianAbsoluteDeviation), ("ns_per_op.stddev", stats.standardDeviation),
            ]
            for (metric, value) in timing {
                lines.append(row(prefix + [metric, "ns", number(value), "", "", samples, repetitions, ""]))
            }
            for name in result.counterNames.sorted() {
                let values = result.counterPerProcess(name)
                lines.append(
                    row(
                        prefix + [
                            name + ".per_op", unit(name), number(result.counterMedian(name) ?? .nan),
                            "", "", samples, "\(values.count)", "",
                        ]))
            }
            // The workload's own figures: the median over the repetitions, each one process's value.
            for name in result.figureNames.sorted() {
                guard let figure = result.figurePerProcess(name), let median = result.figureMedian(name) else {
                    continue
                }
                lines.append(
                    row(
                        prefix + [
                            name, figure.unit.rawValue, number(median.value), "", "", samples, "\(figure.values.count)",
                            "",
                        ]))
            }
            for (name, reason) in (result.records.first?.unavailable ?? [:]).sorted(by: { $0.key < $1.key }) {
                lines.append(row(prefix + [name + ".per_op", unit(name), "", "", "", samples, repetitions, reason]))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// One record, each field quoted when RFC 4180 requires it (comma, quote, CR or LF).
    public static func row(_ fields: [String]) -> String {
        fields.map { field in
            field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" })
                ? "\"" + field.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
                : field
        }.joined(separator: ",")
    }

    /// Shortest text that reads back as the same Double.
    static func number(_ value: Double) -> String { "\(value)" }
}

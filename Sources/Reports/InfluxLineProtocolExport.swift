import Results

/// results.influx: the run in InfluxDB's line protocol, one line per case with samples, for
/// Grafana over InfluxDB (`influx write -b BUCKET -f results.influx`).
///
/// `runtimebench,<tags> <fields> <timestamp>`:
/// - tags: the case (case, workload, backend, parameters, allocator) and the machine's identity
///   (cpu, online_cpus, usable_cpus, kernel, virtual_machine, swift, host, commit, suite);
/// - fields: ns_per_op (the case's figure), repeat_lower and repeat_upper (where a repeat run's
///   figure should fall; absent for a case measured in one process), processes (an integer), and
///   each counter and workload figure per operation, the median over the processes, under its
///   metric name; a metric not measured is absent, never 0;
/// - timestamp: when the run started, in seconds (write with `--precision s`); absent in a file
///   written before runs recorded it, so the server's time is used.
/// Escaping follows the line protocol: commas, equals signs and spaces in tag keys and values
/// and in field keys take a backslash; an empty tag value is left out.
enum InfluxLineProtocolExport {
    static let fileName = "results.influx"
    static let measurement = "runtimebench"

    static func encode(_ run: RunResults, cases: [MeasuredCase]) -> String {
        let environment = run.environment
        var machine: [(String, String)] = [
            ("cpu", environment.cpuModel), ("online_cpus", "\(environment.onlineCPUs)"), ("kernel", environment.kernel),
            ("virtual_machine", environment.virtualMachine), ("swift", environment.swiftCompiler),
            ("host", environment.hostname),
            ("commit", environment.gitCommit), ("suite", run.suite.rawValue),
        ]
        if let usable = environment.usableCPUs { machine.append(("usable_cpus", usable.description)) }
        var lines: [String] = []
        for measured in cases {
            guard let estimate = measured.estimate else { continue }
            let c = measured.benchmarkCase
            let tags =
                [
                    ("case", c.id), ("workload", c.workload), ("backend", c.backend),
                    ("parameters", c.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",")),
                    ("allocator", c.allocator.rawValue),
                ] + machine
            var fields: [(String, String)] = [
                ("ns_per_op", number(estimate.value)), ("processes", "\(estimate.processes)i"),
            ]
            let interval = estimate.repeatInterval
            if interval.lower.isFinite && interval.upper.isFinite {
                fields += [("repeat_lower", number(interval.lower)), ("repeat_upper", number(interval.upper))]
            }
            for name in measured.result.counterNames.sorted() {
                if let value = measured.result.counterMedian(name), value.isFinite {
                    fields.append((name, number(value)))
                }
            }
            for name in measured.workloadMetricNames.sorted() {
                if let figure = measured.result.figureMedian(name), figure.value.isFinite {
                    fields.append((name, number(figure.value)))
                }
            }
            let tagText = tags.filter { !$0.1.isEmpty }.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: ",")
            let fieldText = fields.map { "\(escape($0.0))=\($0.1)" }.joined(separator: ",")
            lines.append(
                "\(measurement),\(tagText) \(fieldText)" + (run.started.map { " \($0.secondsSinceEpoch)" } ?? ""))
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// A tag key or value, or a field key, with the line protocol's special characters escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case ",", "=", " ", "\\": escaped += "\\\(character)"
            case "\n", "\r", "\t": escaped += " "  // no newline may end a line early
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A float field: plain decimal, as the protocol reads it.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) + ".0" : "\(value)"
    }
}

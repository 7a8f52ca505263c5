import Harness

/// The cases of a run as the claims look them up: by workload, backend and parameters, under
/// the system allocator (the claims are about runtimes, not allocators), with their timing and
/// counters, and a reason when something needed is missing.
public struct Evidence: Sendable {
    let cases: [CaseResult]
    let counterAvailability: [String: String]

    public init(_ run: RunResults) {
        cases = run.cases
        counterAvailability = run.counterAvailability
    }

    /// A measured case: its id, statistics, and the median of each counter per operation.
    struct Measured {
        let id: String
        let label: String
        let statistics: SampleStatistics
        let result: CaseResult

        /// The counter per operation, or the workload's own figure of that name (median over
        /// the processes), or nil.
        func counter(_ name: String) -> Double? {
            var values = result.records.compactMap { $0.metricsPerOperation[name] }
            if values.isEmpty { values = result.records.compactMap { $0.workloadMetrics?[name]?.value } }
            return values.isEmpty ? nil : SampleStatistics.percentile(values.sorted(), 0.5)
        }

        var timing: String {
            "\(label): \(Self.format(statistics.median)) ns (95% CI \(Self.format(statistics.medianInterval.lower))–\(Self.format(statistics.medianInterval.upper)))"
        }

        static func format(_ value: Double) -> String {
            if value >= 100 { return "\(Int(value.rounded()))" }
            if value >= 10 { return "\((value * 10).rounded() / 10)" }
            return "\((value * 100).rounded() / 100)"
        }
    }

    /// The case of `workload` on `backend` whose parameters include all of `parameters`, under
    /// the system allocator, with samples; otherwise the reason it cannot be used.
    func find(_ workload: String, backend: String, _ parameters: [String: String], label: String) -> Result<Measured, Missing> {
        let matching = cases.filter { result in
            let c = result.benchmarkCase
            return c.workload == workload && c.backend == backend && c.allocator == .system
                && parameters.allSatisfy { c.parameter($0.key) == $0.value }
        }
        let wanted = "\(workload)/\(backend)/" + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        guard let result = matching.first else { return .failure(Missing("\(wanted) was not run (it is in the quick suite)")) }
        guard let statistics = result.statistics else { return .failure(Missing("\(result.benchmarkCase.id) has no samples: \(result.status)")) }
        return .success(Measured(id: result.benchmarkCase.id, label: label, statistics: statistics, result: result))
    }

    /// Why `counter` has no value in `measured`: the run's reason, or "not recorded".
    func whyUnavailable(_ counter: String) -> String {
        counterAvailability[counter].map { $0.hasPrefix("unavailable") ? "\(counter) \($0)" : "\(counter) was not recorded for this case" }
            ?? "\(counter) was not recorded in this run"
    }

    struct Missing: Error { let reason: String; init(_ reason: String) { self.reason = reason } }
}

/// Which of two timings is smaller, by their medians' 95% intervals: an answer only when the
/// intervals do not overlap. The claims and the report's "what should I use?" both decide by it.
public enum Faster: Equatable, Sendable {
    case first, second, neither

    public init(_ first: SampleStatistics, _ second: SampleStatistics) {
        if first.medianInterval.upper < second.medianInterval.lower {
            self = .first
        } else if second.medianInterval.upper < first.medianInterval.lower {
            self = .second
        } else {
            self = .neither
        }
    }
}

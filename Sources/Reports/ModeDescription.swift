import Results

/// What the report says of a case whose processes fell into modes (`ProcessMode`): each mode's
/// figure and share of the processes, and the counters per operation that differ between the
/// modes, which is where the cause shows (a context switch or a futex wake-up per operation in
/// the slow mode and none in the fast one says the slow mode hands off across CPUs).
enum ModeDescription {
    /// Two modes' medians of a counter at least this factor apart make it one that differs.
    static let counterRatio = 2.0
    /// Below this many per operation in every mode, a counter is too rare to explain a time.
    static let counterFloor = 0.01
    /// At most this many differing counters are named, the most different first.
    static let counterLimit = 4

    /// "- fifo-dispatch · queue-sync (system): 11.6 ns in 3 of 4 processes (share 30%–95%), 2.52 µs
    /// in 1 of 4 processes (share 5%–70%); the modes differ in context-switches (0.0011, 1.93 per
    /// operation), …"
    /// `estimate` is the case's figure by its family's `ranking`; `scale` turns it into the
    /// table's unit (per iteration for a loop).
    static func line(_ measured: MeasuredCase, label: String, estimate: CaseEstimate, scale: Double = 1) -> String {
        let modes = estimate.modes.map { mode in
            let share = mode.shareInterval
            let figure = measured.ranking.shown(mode.estimate.value * scale)
            return "\(figure) in \(mode.processes) of \(mode.ofProcesses) processes "
                + "(share \(percent(share.lowerBound))–\(percent(share.upperBound)))"
        }
        let differing = differingCounters(measured.result, modes: estimate.modes, value: measured.ranking.value)
        let counters =
            differing.isEmpty
            ? "no counter per operation differs between them by \(Figures.ratio(counterRatio)) or more"
            : "the modes differ in "
                + differing.map { name, medians in
                    "\(name) (\(medians.map(Figures.value).joined(separator: ", ")) per operation)"
                }.joined(separator: ", ")
        return "- \(label): \(modes.joined(separator: ", ")); \(counters)."
    }

    /// The counters whose medians over each mode's processes differ by `counterRatio` or more,
    /// with those medians (fastest mode first), the most different first.
    /// `value` is a process's figure, which placed it in its mode.
    static func differingCounters(
        _ result: CaseResult, modes: [ProcessMode], value: (CaseRecord) -> Double?
    ) -> [(String, [Double])] {
        let byMode = modes.map { mode in result.records.filter { value($0).map(mode.contains) ?? false } }
        var found: [(name: String, medians: [Double], ratio: Double)] = []
        for name in result.counterNames.sorted() {
            let medians = byMode.compactMap { records -> Double? in
                let values = records.compactMap { $0.metricsPerOperation[name] }.sorted()
                return values.isEmpty ? nil : SampleStatistics.percentile(values, 0.5)
            }
            guard medians.count == modes.count, let high = medians.max(), let low = medians.min(),
                high >= counterFloor
            else { continue }
            let ratio = low > 0 ? high / low : .infinity
            if ratio >= counterRatio { found.append((name, medians, ratio)) }
        }
        return found.sorted { $0.ratio > $1.ratio }.prefix(counterLimit).map { ($0.name, $0.medians) }
    }

    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}

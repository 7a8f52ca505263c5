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
        let value = measured.ranking.value
        let groups = estimate.modes.map { mode in
            measured.result.records.filter { value($0).map(mode.contains) ?? false }
        }
        let differing = differingCounters(measured.result, groups: groups)
        let counters =
            differing.isEmpty
            ? "no counter per operation differs between them by \(Figures.ratio(counterRatio)) or more"
            : "the modes differ in "
                + differing.map { name, medians in
                    "\(name) (\(medians.map(Figures.value).joined(separator: ", ")) per operation)"
                }.joined(separator: ", ")
        let switching = ModeSwitching(measured.result.records).map { "; " + switched($0, scale: scale) } ?? ""
        return "- \(label): \(modes.joined(separator: ", ")); \(counters)\(hopsApart(groups))\(switching)."
    }

    /// "- fifo-dispatch · ping-pong (system): in 10 of 29 processes the samples switched …" for a
    /// case whose processes did not fall into modes, but changed mode as they ran.
    static func switchingLine(label: String, switching: ModeSwitching, scale: Double = 1) -> String {
        "- \(label): \(switched(switching, scale: scale))."
    }

    /// "in 10 of 29 processes the samples switched between about 140 ns and 1.5 µs (…)": why a
    /// process's figure is then a mix of the modes.
    static func switched(_ switching: ModeSwitching, scale: Double) -> String {
        "in \(switching.switched) of \(switching.processes) processes the samples switched between about "
            + "\(Figures.nanoseconds(switching.fast * scale)) and \(Figures.nanoseconds(switching.slow * scale)) "
            + "(each such process changed mode as it ran: its figure mixes the modes by its time in each)"
    }

    /// "; a cache line took 31, 223 ns from one CPU to another in them (…)" when the modes' processes ran with their
    /// CPUs `RunCPUHops.farFactor` or more further apart in one mode than in another: then that
    /// mode is the machine's, not the runtime's. Empty otherwise, or where no process was probed.
    static func hopsApart(_ groups: [[CaseRecord]]) -> String {
        let medians = groups.map { records in
            let hops = records.compactMap { $0.cpuHop?.nanoseconds }.sorted()
            return hops.isEmpty ? nil : SampleStatistics.percentile(hops, 0.5)
        }
        guard medians.allSatisfy({ $0 != nil }), let low = medians.compactMap({ $0 }).min(),
            let high = medians.compactMap({ $0 }).max(), high >= low * RunCPUHops.farFactor
        else { return "" }
        return "; a cache line took \(medians.map { Figures.value($0!) }.joined(separator: ", ")) ns from one CPU "
            + "to another in them (the machine moved its CPUs apart: a mode of the machine, not of the runtime)"
    }

    /// The counters whose medians over each group of `result`'s processes differ by
    /// `counterRatio` or more, with those medians (in the groups' order), the most different first.
    static func differingCounters(_ result: CaseResult, groups: [[CaseRecord]]) -> [(String, [Double])] {
        var found: [(name: String, medians: [Double], ratio: Double)] = []
        for name in result.counterNames.sorted() {
            let medians = groups.compactMap { records -> Double? in
                let values = records.compactMap { $0.metricsPerOperation[name] }.sorted()
                return values.isEmpty ? nil : SampleStatistics.percentile(values, 0.5)
            }
            guard medians.count == groups.count, let high = medians.max(), let low = medians.min(),
                high >= counterFloor
            else { continue }
            let ratio = low > 0 ? high / low : .infinity
            if ratio >= counterRatio { found.append((name, medians, ratio)) }
        }
        return found.sorted { $0.ratio > $1.ratio }.prefix(counterLimit).map { ($0.name, $0.medians) }
    }

    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}

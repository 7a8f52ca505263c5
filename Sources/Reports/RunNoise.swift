import Results

/// How noisy a run was, read from the run itself: how far its cases' processes disagreed, and
/// what else used the machine meanwhile. The report says it on its first screen, beside the
/// answers it qualifies.
struct RunNoise {
    /// The median over cases of the spread between a case's own processes (a standard deviation
    /// of logarithms, ≈ relative); nil when no case had two processes.
    let typicalSpread: Double?
    /// Cases with two processes or more, and those among them whose processes disagree by more
    /// than `disagreeingSpread`.
    let casesWithSpread: Int
    let disagreeing: [String]
    let load: MachineLoad?
    /// How far apart two CPUs were in the run's processes, and in how many they were far apart.
    let hops: RunCPUHops
    /// The run's processes per case (`--repetitions`): the advice for a tie suggests twice that.
    let repetitions: Int

    /// Processes this far apart (10%) make a case's own figure uncertain beyond what most
    /// comparisons in the suite can resolve.
    static let disagreeingSpread = 0.10

    enum Verdict: String { case quiet, someNoise = "some noise", noisy }

    init(_ cases: [MeasuredCase], load: MachineLoad?, repetitions: Int) {
        let spreads = cases.compactMap { measured in
            measured.estimate?.ownSpread.map { (measured.benchmarkCase.id, $0) }
        }
        typicalSpread = spreads.isEmpty ? nil : SampleStatistics.percentile(spreads.map(\.1).sorted(), 0.5)
        casesWithSpread = spreads.count
        disagreeing = spreads.filter { $0.1 > Self.disagreeingSpread }.map(\.0)
        self.load = load
        hops = RunCPUHops(cases.flatMap(\.result.records))
        self.repetitions = repetitions
    }

    /// Quiet: processes of a typical case agree within 1.5% and at most one case in ten
    /// disagrees; noisy: a typical case's processes are 5% apart or a quarter of the cases
    /// disagree; anything between has some noise.
    var verdict: Verdict? {
        guard let typicalSpread else { return nil }
        let share = Double(disagreeing.count) / Double(casesWithSpread)
        if typicalSpread > 0.05 || share > 0.25 { return .noisy }
        if typicalSpread <= 0.015 && share <= 0.10 { return .quiet }
        return .someNoise
    }

    /// Which of the thresholds decided the verdict, so two runs' verdicts can be told apart by
    /// their figures (a run with a small typical spread is noisy when many cases disagree).
    var because: String? {
        guard let typicalSpread, let verdict else { return nil }
        let share = Double(disagreeing.count) / Double(casesWithSpread)
        switch verdict {
        case .noisy:
            return typicalSpread > 0.05
                ? "Noisy because a typical case's processes were more than 5% apart."
                : "Noisy because more than a quarter of the cases had processes over 10% apart (\(percent(share)))."
        case .quiet:
            return "Quiet because a typical case's processes agreed within 1.5% and at most one case in ten had "
                + "them over 10% apart."
        case .someNoise:
            return "Some noise: not quiet (a typical case within 1.5%, at most one case in ten over 10%), "
                + "not noisy (a typical case over 5%, or more than a quarter of the cases over 10%)."
        }
    }

    /// The first screen's paragraph: the verdict with its figures, and what to do about a tie.
    var markdownLines: [String] {
        guard let typicalSpread, let verdict else {
            return [
                "**Noise:** every case ran in one process, so this run cannot say how far its figures would move in "
                    + "a repeat run and calls nothing clear. Run with `--repetitions 3` or more."
            ]
        }
        var facts = [
            "a typical case's processes differed by \(percent(typicalSpread))",
            "\(disagreeing.count) of \(casesWithSpread) cases had processes more than "
                + "\(percent(Self.disagreeingSpread)) apart",
        ]
        if let load {
            if let steal = load.stealPercent {
                facts.append("the hypervisor took \(percent(steal / 100)) of the CPU time (steal)")
            }
            facts.append("other processes used \(percent(load.otherProcessesPercent / 100)) of it")
        }
        if let median = hops.median {
            var fact = "a cache line took \(Figures.value(median)) ns from one CPU to another in a typical process"
            if hops.far > 0 {
                fact +=
                    " and over \(Figures.value(RunCPUHops.farFactor))× that in \(hops.far) of \(hops.probed) processes "
                    + "(the CPUs were moved apart under them: hand-offs cost more there)"
            }
            facts.append(fact)
        }
        let decided: String = because.map { $0 + " " } ?? ""
        var lines = [
            "**Noise: \(verdict.rawValue).** While this run measured, " + facts.joined(separator: "; ") + ". " + decided
                + "Each figure's interval is where a repeat run's figure should fall, "
                + "from the spread between the case's processes and how far a whole run drifts; "
                + "a contender is called clearly faster only where the two figures differ by more than their "
                + "processes' spread allows, and is a tie otherwise."
        ]
        lines.append(
            "To settle a tie: more processes per case (`--repetitions \(max(3, 2 * repetitions))`; "
                + "an interval narrows with the square root of their number), longer samples (`--suite full`), "
                + "a CPU of its own (`--cpus 1`, for one-thread cases), a quieter machine "
                + "(`bench doctor` says what disturbs this one), or `bench ab` for two builds measured side by side.")
        return lines
    }

    /// "13.2%", "0%", or "under 0.1%" for a share too small to matter (steal of 0.006%).
    private func percent(_ fraction: Double) -> String {
        let percent = fraction * 100
        return percent > 0 && percent < 0.1 ? "under 0.1%" : Figures.value(percent) + "%"
    }
}

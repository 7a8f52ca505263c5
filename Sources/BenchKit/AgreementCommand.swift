import ArgumentParser
import Harness
import Results
import Reports

/// `bench agreement RUN.json RUN.json …`: does each run agree with the one before it?
struct AgreementCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agreement",
        abstract: "Check that repeat runs agree: figures inside the earlier run's intervals, "
            + "its \"clearly\" statements kept, its first-screen answers the same.",
        discussion: """
            Give two or more results files of the same suite on the same machine, oldest first. \
            Each run is checked against the one before it:

            - figures: the share of cases whose figure in the later run falls outside the \
            earlier run's repeat interval. The interval claims 95 of 100 repeat runs inside it, \
            so about 5% should miss; many more means the intervals are too narrow for this \
            machine.
            - statements: every "clearly" of the earlier run's report (a parameter set's clear \
            winner over its runner-up, a claim supported or refuted, jemalloc clearly faster or \
            slower than the system allocator) checked in the later run: holds, tie (the later run \
            cannot tell them apart) or reversed (it says the opposite).
            - answers: each part of report.md's questions. Two answers agree when no contender is \
            a leader in one (the best, or within 5% of it) and clearly more than 5% behind in the \
            other; a contender one run could not tell apart from the best may be placed either way \
            by the other. They are the same word for word when both name the same contenders \
            leading together (none clearly more than 5% behind the fastest) and the same ones that \
            depend on the mode.

            - spread: the cases whose slowest process took over twice its fastest, per run and in \
            every run. On a shared machine one run's spreads measure the sitting too. Each child \
            times a cache line's trip between two CPUs before and after its samples; a process \
            whose trip took over twice the run's usual ran on a machine changed under it (a VM's \
            CPUs moved apart), and the spread is also given without such processes ("steady"). A \
            case wide in every run, steady, is the runtime's. Each is listed with the counters per \
            operation (parks, wake-ups, context switches, CPU time) that differ between its fastest \
            and its slowest process, in the run where they were furthest apart; with the processes \
            whose own samples switched between modes (the mode changed as the process ran), and \
            beside it the best other contender of its parameters, fastest to slowest process: a \
            wide case whose slowest process matches what the others always read has a lucky fast \
            mode rather than an unlucky slow one.

            The cases missed (largest first), the statements not held, the answers that differ \
            and the widest spreads are listed (--list limits how many of each). tools/report-calibration.sh runs \
            a suite N times and calls this; README "How far a figure holds" has this machine's \
            figures.

            Exit status: 0 checked, 64 fewer than two files (a command-line mistake), 2 a file \
            missing, unreadable or not a results file.

            Examples:
              bench agreement run1/results.json run2/results.json
              bench agreement cal/*/results.json --list 0
            """
    )

    @Argument(help: "Two or more results.json files, oldest first.")
    var files: [String] = []

    @Option(
        parsing: .unconditional,
        help: "How many misses, statements not held and wide spreads to list (0: only the counts).")
    var list = 10

    func validate() throws {
        guard files.count >= 2 else {
            throw ValidationError("give at least two results files, oldest first (got \(files.count))")
        }
        guard list >= 0 else { throw ValidationError("--list must be 0 or more, got \(list)") }
    }

    func run() throws {
        let reader = CommandFiles(command: "agreement")
        let runs = try files.map { try reader.results($0, role: "run") }
        var compared = 0, missed = 0, answers = 0, sameAnswers = 0, agreeingAnswers = 0
        var outcomes: [Agreement.Statement.Outcome: Int] = [:]
        for index in 1..<runs.count {
            let agreement = Agreement(first: runs[index - 1], repeated: runs[index])
            compared += agreement.comparedCases
            missed += agreement.misses.count
            for statement in agreement.statements { outcomes[statement.outcome, default: 0] += 1 }
            answers += agreement.answers.count
            sameAnswers += agreement.sameAnswers
            agreeingAnswers += agreement.agreeingAnswers
            print("\(files[index - 1]) → \(files[index]):")
            print(
                "  figures: \(agreement.misses.count) of \(agreement.comparedCases) outside the earlier interval "
                    + "(\(percent(agreement.missRate)))")
            print("  statements: \(summary(agreement.statements.count, agreement.count))")
            let answered = agreement.answers.count
            print(
                "  answers: "
                    + answerSummary(answered, agreeing: agreement.agreeingAnswers, same: agreement.sameAnswers))
            for miss in agreement.misses.prefix(list) {
                let interval = miss.first.repeatInterval
                print(
                    "    miss  \(miss.caseID): "
                        + "\(number(miss.first.value)) [\(number(interval.lower))–\(number(interval.upper))] → "
                        + "\(number(miss.repeated.value)) (\(ratio(miss.ratio)))")
            }
            for statement in agreement.statements.filter({ $0.outcome != .holds }).prefix(list) {
                print("    \(statement.outcome.rawValue)  \(statement.text)")
            }
            for answer in agreement.answers.filter({ !$0.isSame }).prefix(list) {
                let what = answer.agrees ? "differs" : "contradicts (\(answer.contradictions.joined(separator: ", ")))"
                print("    \(what)  \(answer.text): \(answer.firstText) → \(answer.repeatedText)")
            }
        }
        if runs.count > 2 {
            let statements = outcomes.values.reduce(0, +)
            print("all \(runs.count - 1) pairs:")
            print(
                "  figures: \(missed) of \(compared) outside the earlier interval "
                    + "(\(percent(compared == 0 ? 0 : Double(missed) / Double(compared))))")
            print("  statements: \(summary(statements) { outcomes[$0] ?? 0 })")
            print("  answers: \(answerSummary(answers, agreeing: agreeingAnswers, same: sameAnswers))")
        }
        printSpreads(ProcessSpread(runs))
    }

    /// The cases whose slowest process took over `ProcessSpread.limit` times the fastest, in how
    /// many runs, with and without the processes whose CPUs were far apart, and what differed
    /// between the fastest and the slowest process.
    private func printSpreads(_ spread: ProcessSpread) {
        let limit = Figures.value(ProcessSpread.limit), far = Figures.value(RunCPUHops.farFactor)
        let near = Figures.value(RunCPUHops.nearFactor)
        print("spread between processes (the slowest over \(limit)× the fastest):")
        for run in spread.casesPerRun.indices {
            let cases = "  run \(run + 1): \(spread.widePerRun[run]) of \(spread.casesPerRun[run]) cases; "
            guard spread.probedPerRun[run] > 0 else {
                print(cases + "no process timed a CPU hop (a run made before the probe), so none is left out")
                continue
            }
            print(
                cases + "\(spread.steadyWidePerRun[run]) without the processes whose CPU hop took over \(far)× "
                    + "the run's median (\(spread.farPerRun[run]) of \(spread.probedPerRun[run]) processes) or "
                    + "under \(near)× it at either end (\(spread.nearPerRun[run]))")
        }
        if spread.casesPerRun.count >= 2 {
            print(
                "  in every run: \(spread.inEveryRun.count) cases; \(spread.steadyInEveryRun.count) without "
                    + "the processes whose CPUs were far apart or near")
        }
        for wide in spread.wide.prefix(list) {
            let ratios = zip(wide.ratios, wide.steadyRatios).map { all, steady in
                guard let all else { return "–" }
                guard let steady, steady != all else { return ratio(all) }
                return "\(ratio(all)) (\(ratio(steady)) steady)"
            }.joined(separator: ", ")
            var widest = "widest \(wide.shown(wide.fastest)) against \(wide.shown(wide.slowest))"
            if let fast = wide.fastestHop, let slow = wide.slowestHop {
                widest += ", a CPU hop \(number(fast)) ns against \(number(slow)) ns"
            }
            let counters =
                wide.differing.isEmpty
                ? "no counter per operation differs by \(Figures.value(ProcessSpread.counterRatio))× or more"
                : "they differ in "
                    + wide.differing.map { "\($0.name) (\($0.values.map(number).joined(separator: ", ")))" }
                    .joined(separator: ", ")
            let switching = wide.switching.map {
                "; in \($0.switched) of \($0.processes) processes the samples switched between "
                    + "\(Figures.nanoseconds($0.fast)) and \(Figures.nanoseconds($0.slow)) per operation"
            }
            let rival = wide.rival.map {
                "; the best other, \($0.contender): \(wide.shown($0.fastest)) to \(wide.shown($0.slowest)), "
                    + "median \(wide.shown($0.median))"
                    + (wide.slowest < $0.fastest ? " (this case's slowest process beat its fastest)" : "")
            }
            print(
                "    over in \(wide.wideRuns) of \(wide.measuredRuns), \(wide.steadyWideRuns) steady  "
                    + "\(wide.caseID): \(ratios); \(widest); \(counters)\(switching ?? "")\(rival ?? "")")
        }
    }

    private func summary(_ total: Int, _ count: (Agreement.Statement.Outcome) -> Int) -> String {
        let changed = count(.tie) + count(.reversed)
        let judged = total - count(.missing)
        let share = judged == 0 ? "" : " (\(percent(Double(changed) / Double(judged))) not held)"
        var text =
            "\(total) clearly, \(count(.holds)) held, \(count(.tie)) became a tie, \(count(.reversed)) reversed" + share
        if count(.missing) > 0 { text += ", \(count(.missing)) not in the later run" }
        return text
    }

    private func answerSummary(_ total: Int, agreeing: Int, same: Int) -> String {
        "\(agreeing) of \(total) agree, \(total - agreeing) contradict; \(same) of \(total) the same word for word"
    }

    private func percent(_ fraction: Double) -> String { "\((fraction * 1000).rounded() / 10)%" }
    private func number(_ value: Double) -> String { Figures.value(value) }
    private func ratio(_ value: Double) -> String { "\(((value) * 100).rounded() / 100)×" }
}

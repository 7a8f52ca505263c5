import CaseCatalogue
import Claims
import Fidelity
import Results

/// report.md: what people read. The first screen says how noisy the run was and answers "what
/// should I use?" and gives the claims' verdicts, all computed from the run; then the machine and
/// its counters, the best stride per body cost, a table per family and parameter set (figure, the
/// interval a repeat run should fall in, the ratio to the best, counters per operation), the
/// charts, and every case that failed or did not apply, with the reason. Nothing here is a
/// conclusion written in advance.
enum MarkdownReport {
    static func render(
        _ run: RunResults, cases: [MeasuredCase], families: [Family], strides: StrideFigures,
        charts: [ReportChart], verdicts: [ClaimVerdict], allColumns: Bool = false
    ) -> String {
        var lines = ["# RuntimeBench report", ""]
        if let interrupted = run.interrupted {
            lines += [
                "**This run was interrupted** (\(interrupted)): every table below holds only the cases that finished.",
                "",
            ]
        }
        lines += [context(run), ""]
        if run.countedAllocations == true {
            lines += [
                "**Allocations were counted** (`--count-allocations`): every child preloaded the interposer that "
                    + "counts malloc's family, retains and releases on every thread, "
                    + "so every timing here includes its cost (Sources/CInterposer/README.md gives it per call). "
                    + "Compare these timings only with a run that counted too.", "",
            ]
        }
        lines +=
            ["## Questions", ""] + (ownRuntimes(run).map { [$0, ""] } ?? [])
            + QuestionAnswer.markdownLines(Question.firstScreen, cases: cases, cpus: run.environment.cpusAtOnce) + [""]
        lines += runtimes(run).map { $0 + [""] } ?? []
        lines += RunNoise(cases, load: run.load, repetitions: run.repetitions).markdownLines.flatMap { [$0, ""] }
        lines += [
            "## What should I use?", "",
            "Per family, under the system allocator: which contender is best, "
                + "counted only where it beats the runner-up by more than their processes' spread allows, "
                + "so a repeat run would say the same; anything closer is a tie.", "",
        ]
        let answers = Answers(families).markdownLines
        lines += answers.isEmpty ? ["No family had two contenders with samples to compare."] : answers
        if let allocator = Answers.allocatorLine(cases, suite: run.suite) { lines.append(allocator) }
        lines += [""] + claims(verdicts)
        if let fidelity = FidelityReport.markdownLines(FidelityRow.rows(in: run.cases)) { lines += [""] + fidelity }
        lines += [""] + environment(run)
        lines += [""] + striding(strides, charts: charts.filter { $0.section == .stride })
        lines += [""] + familyTables(run, families: families, charts: charts, allColumns: allColumns)
        if let profiles = run.profiles, !profiles.isEmpty { lines += [""] + profileSection(profiles) }
        lines += [""] + failures(cases)
        return lines.joined(separator: "\n") + "\n"
    }

    static func context(_ run: RunResults) -> String {
        let environment = run.environment
        let virtual = environment.virtualMachine.hasPrefix("yes") ? ", a virtual machine" : ""
        // A commit id is 40 hex digits (a reason can be 40 characters too: "unavailable: not run
        // from a git checkout"); anything else reads as an unknown commit.
        let isCommit = environment.gitCommit.count == 40 && environment.gitCommit.allSatisfy(\.isHexDigit)
        let commit =
            isCommit
            ? "commit \(environment.gitCommit.prefix(12))"
                + (environment.uncommittedChanges == true ? " with uncommitted changes" : "")
            : "an unknown commit (\(environment.gitCommit.replacing("unavailable: ", with: "")))"
        return "Suite **\(run.suite)** (\(caseCounts(run)), "
            + "samples of at least \(Figures.value(Double(run.sampleTimeNanoseconds) / 1e6)) ms), "
            + "measured on \(environment.cpuModel) with \(environment.onlineCPUs) CPUs\(virtual), "
            + "built by \(environment.swiftCompiler)\(environment.benchVersion.map { " as bench \($0)" } ?? "") at "
            + "\(commit). Every number below is computed from results.json beside this file: "
            + "`bench report results.json` writes this report again."
    }

    /// "469 cases, 434 measured (35 not applicable to their backend), 5 processes per case, up to
    /// 17 for the 56 whose answers needed more": the counts the rest of the first screen uses
    /// (the noise paragraph counts measured cases, a mode counts a case's processes, which the
    /// answers' round raises above the run's `--repetitions`).
    static func caseCounts(_ run: RunResults) -> String {
        let notApplicable = run.cases.count { $0.notApplicable != nil }
        let measured = run.cases.count { !$0.records.isEmpty }
        let failed = run.cases.count - measured - notApplicable
        var counts = "\(run.cases.count) cases"
        if measured < run.cases.count {
            let unmeasured = [
                notApplicable > 0 ? "\(notApplicable) not applicable to their backend" : nil,
                failed > 0 ? "\(failed) failed" : nil,
            ]
            counts += ", \(measured) measured (" + unmeasured.compactMap(\.self).joined(separator: ", ") + ")"
        }
        let extended = run.cases.map(\.records.count).filter { $0 > run.repetitions }
        counts += ", \(run.repetitions) process\(run.repetitions == 1 ? "" : "es") per case"
        if run.interrupted != nil { counts += " planned, fewer where the interruption cut a case short" }
        if let most = extended.max() {
            counts += ", up to \(most) for the \(extended.count) whose answers needed more"
        }
        return counts
    }

    /// What each backend of the run is, under the questions that name them: a new user read
    /// "fifo-dispatch" and "pthread-mutex" on the first screen with nothing to say whether they were
    /// real libraries or the suite's own. In the order the report ranks backends; nil for a results
    /// file without summaries.
    /// Which of the answers' contenders are this suite's own runtimes: a reader took "work-stealing
    /// is clearly fastest" for a recommendation of something to import, until the list of
    /// runtimes below the questions said otherwise. nil when the run measured none of them.
    static func ownRuntimes(_ run: RunResults) -> String? {
        let measured = Set(run.cases.map(\.benchmarkCase.backend))
        let own = BackendName.suiteOwn.map(\.rawValue).filter(measured.contains)
        guard !own.isEmpty else { return nil }
        let are = own.count == 1 ? " is this suite's own runtime" : " are this suite's own runtimes"
        return Answers.listed(own.map { "**\($0)**" }) + are
            + ", measured beside what Swift, Dispatch and SwiftNIO ship: where one leads, it shows what a runtime "
            + "could do, not a library to import (the list after the questions describes each)."
    }

    static func runtimes(_ run: RunResults) -> [String]? {
        guard let summaries = run.backends, !summaries.isEmpty else { return nil }
        var ids: [String] = []
        for result in run.cases {
            let backend = result.benchmarkCase.backend
            if summaries[backend] != nil, !ids.contains(backend) { ids.append(backend) }
        }
        ids += summaries.keys.filter { !ids.contains($0) }.sorted()
        return ["**The runtimes named above** (`bench list` describes each):"]
            + ids.map { "- **\($0)**: \(summaries[$0]!)" }
    }

    static func claims(_ verdicts: [ClaimVerdict]) -> [String] {
        guard !verdicts.isEmpty else { return [] }
        var table = MarkdownTable([
            ("verdict", .left), ("layer", .left), ("claim of the dispatch guide", .left), ("measured", .left),
            ("because", .left),
        ])
        for verdict in verdicts {
            table.rows.append([
                "**\(verdict.verdict.rawValue)**", verdict.layer.description,
                "`\(verdict.claim)`: “\(verdict.statement)” (\(verdict.conditions))",
                verdict.evidence.isEmpty ? "—" : verdict.evidence.joined(separator: "; "), verdict.reason,
            ])
        }
        return [
            "## Claims of the dispatch guide", "",
            "The guide is the “Dispatch Queues” chapter of Apple's Concurrency Programming Guide; "
                + "each claim below quotes it.", "",
            "A timing claim is decided only when the two figures differ by more than their processes' spread allows "
                + "(a repeat run would say the same); a counter claim needs its counter. "
                + "Each claim is judged on two layers where both exist: Swift code "
                + "(GCD through the Dispatch overlay, against Swift's `Mutex`) and the runtime itself "
                + "(libdispatch's C entry points, against pthreads from C), since the overlay's own cost can decide "
                + "a comparison. `bench claims results.json` prints the same.", "",
        ] + table.lines
    }

    static func environment(_ run: RunResults) -> [String] {
        let e = run.environment
        var facts = MarkdownTable([("fact", .left), ("value", .left)])
        facts.rows = [
            ["CPU", e.cpuModel], ["online CPUs", "\(e.onlineCPUs)"],
            ["usable CPUs", e.usableCPUs.map { "\($0) (\($0.count) at once)" } ?? "not recorded"],
            ["kernel", e.kernel], ["virtual machine", e.virtualMachine],
            ["CPU frequency governor", e.cpuGovernor], ["perf_event_paranoid", e.perfEventParanoid],
            ["compiler", e.swiftCompiler],
            ["bench", e.benchVersion ?? "not recorded"],
            ["commit", e.gitCommit + (e.uncommittedChanges == true ? " with uncommitted changes" : "")],
            ["host", e.hostname], ["suite", run.suite.rawValue],
            ["processes per case", "\(run.repetitions)" + (run.interrupted == nil ? "" : " planned (interrupted)")],
            ["minimum sample time", "\(Figures.value(Double(run.sampleTimeNanoseconds) / 1e6)) ms"],
        ]
        facts.rows += (run.calibration ?? [:]).sorted { $0.key < $1.key }.map {
            ["calibration: \($0.key)", Figures.value($0.value)]
        }
        facts.rows += run.tools.sorted { $0.key < $1.key }.map { ["tool: \($0.key)", $0.value] }
        var availability = MarkdownTable([("counter", .left), ("on this machine", .left)])
        availability.rows = run.counterAvailability.sorted { $0.key < $1.key }.map {
            ["`\($0.key)`", $0.value.description]
        }
        return ["## The machine and its counters", ""] + facts.lines
            + [
                "",
                "A counter that could not be measured is shown as “unavailable”, never as 0; "
                    + "here is why each one is or is not:", "",
            ]
            + availability.lines
    }

    static func striding(_ strides: StrideFigures, charts: [ReportChart]) -> [String] {
        guard strides.settings.contains(where: { $0.curves.contains { !$0.points.isEmpty || $0.automatic != nil } })
        else { return [] }
        let swept = strides.settings.filter(\.isSweep), unswept = strides.settings.filter { !$0.isSweep }
        guard !swept.isEmpty else { return strideOneAgainstAutomatic(unswept) }
        return sweep(swept, charts: charts) + (unswept.isEmpty ? [] : [""] + strideOneAgainstAutomatic(unswept))
    }

    /// The settings that swept the strides: the best one per backend, against stride 1, the
    /// automatic stride and the serial loop.
    static func sweep(_ settings: [StrideFigures.Setting], charts: [ReportChart]) -> [String] {
        var table = MarkdownTable([
            ("setting", .left), ("backend", .left), ("best stride", .right), ("ns/iteration at best", .right),
            ("at stride 1", .right), ("best vs stride 1", .right), ("automatic stride", .right),
            ("automatic chose", .right), ("automatic vs best", .right),
            ("serial loop", .right), ("best vs serial loop", .right),
        ])
        for setting in settings {
            for curve in setting.curves {
                guard let best = curve.best else { continue }
                let one = curve.strideOne
                table.rows.append([
                    setting.title, curve.backend, best.label, Figures.value(best.nanosecondsPerIteration),
                    one.map { Figures.value($0.nanosecondsPerIteration) } ?? "not run",
                    one.map { Figures.ratio($0.nanosecondsPerIteration / best.nanosecondsPerIteration) + " faster" }
                        ?? "—",
                    curve.automatic.map(Figures.value) ?? "not run",
                    curve.automaticStride.map { Figures.value($0.rounded()) } ?? "unavailable",
                    curve.automatic.map {
                        Figures.ratio($0 / best.nanosecondsPerIteration) + automaticVerdict(curve.automaticAgainstBest)
                    } ?? "—",
                    setting.serialLoop.map(Figures.value) ?? "not run",
                    setting.serialLoop.map { speedUp($0 / best.nanosecondsPerIteration) } ?? "—",
                ])
            }
        }
        return [
            "## Apply: the best stride per body cost", "",
            "ns per iteration (median ns per apply ÷ iterations), system allocator. "
                + "“best vs stride 1” is how much the best stride gains over one iteration per block; "
                + "“automatic chose” is the stride the backend used when left to choose (iterations per body call, "
                + "counted in the loop), “automatic vs best” its time over the best fixed stride's, "
                + "“a tie” where their intervals (one value per process) overlap, "
                + "so that a repeat run may order them either way; “best vs serial loop” compares the best parallel "
                + "loop with the plain loop (apply-serial) running the same bodies.", "",
        ] + table.lines + [""] + images(charts)
    }

    /// ", a tie", ", clearly slower" or ", clearly faster" after the automatic stride's ratio to the best.
    static func automaticVerdict(_ verdict: Faster?) -> String {
        switch verdict {
        case nil: ""
        case .neither: ", a tie"
        case .first: ", clearly slower"
        case .second: ", clearly faster"
        case .dependsOnMode: ", depends on the mode"
        }
    }

    /// Without a sweep of fixed strides (the smoke suite, and the quick suite's empty and 1 µs
    /// bodies) there is no best stride: stride 1 beside the automatic stride, and the serial loop,
    /// is what was measured.
    static func strideOneAgainstAutomatic(_ settings: [StrideFigures.Setting]) -> [String] {
        var table = MarkdownTable([
            ("setting", .left), ("backend", .left), ("at stride 1", .right), ("automatic stride", .right),
            ("automatic chose", .right), ("automatic vs stride 1", .right),
            ("serial loop", .right), ("faster of the two vs serial loop", .right),
        ])
        for setting in settings {
            for curve in setting.curves where curve.strideOne != nil || curve.automatic != nil {
                let one = curve.strideOne?.nanosecondsPerIteration
                let faster = [one, curve.automatic].compactMap { $0 }.min()
                table.rows.append([
                    setting.title, curve.backend, one.map(Figures.value) ?? "not run",
                    curve.automatic.map(Figures.value) ?? "not run",
                    curve.automaticStride.map { Figures.value($0.rounded()) } ?? "unavailable",
                    one.flatMap { one in curve.automatic.map { speedUp(one / $0) } } ?? "—",
                    setting.serialLoop.map(Figures.value) ?? "not run",
                    setting.serialLoop.flatMap { serial in faster.map { speedUp(serial / $0) } } ?? "—",
                ])
            }
        }
        let ranStrideOne = settings.contains { $0.curves.contains { $0.strideOne != nil } }
        return [
            "## Apply: " + (ranStrideOne ? "stride 1 against the automatic stride" : "the automatic stride"), "",
            "ns per iteration (median ns per apply ÷ iterations), system allocator. This suite runs "
                + (ranStrideOne ? "one iteration per block and " : "only ")
                + "the stride each backend chooses (“automatic chose”: iterations per body call, "
                + "counted in the loop); the full suite sweeps the strides between, "
                + "finds the best one and draws the curves. “faster of the two vs serial loop” compares the faster "
                + "of those two with the plain loop (apply-serial) running the same bodies.", "",
        ] + table.lines
    }

    /// "2.35× faster" or "3.1× slower".
    static func speedUp(_ ratio: Double) -> String {
        ratio >= 1 ? Figures.ratio(ratio) + " faster" : Figures.ratio(1 / ratio) + " slower"
    }

    static func images(_ charts: [ReportChart]) -> [String] {
        charts.flatMap { ["![\($0.title)](\($0.file))", ""] }
    }

    static func familyTables(_ run: RunResults, families: [Family], charts: [ReportChart], allColumns: Bool)
        -> [String]
    {
        // The counters the run's metrics ask a column for; one no case could measure gets no
        // column, and the report names it and its reason instead.
        let catalogue = MetricCatalogue(run)
        let columns = catalogue.metrics.filter(\.tableColumn)
        let shown = columns.filter { run.counterAvailability[$0.name] == .available }
        let missing = columns.filter { run.counterAvailability[$0.name] != .available }.map { counter in
            "`\(counter.name)` (\(run.counterAvailability[counter.name]?.description ?? "not recorded by this run"))"
        }
        var lines = [
            "## Results by family", "",
            "One table per parameter set: every contender under every allocator, best first. "
                + "A figure is the median over the case's processes of each process's median sample "
                + "(the mean of its samples where they switched modes as it ran); "
                + "“a repeat run” is where 95 of 100 repeat runs' figures should fall, "
                + "from the spread between the processes (samples of one process are not independent) "
                + "and the drift of a whole run. “× best” is a figure over the best's, "
                + "with “a tie” where a repeat run could order the two either way: their processes' spread is wider "
                + "than the difference, and not every process of one is faster than every process of the other "
                + "(the run's drift moves both alike and does not count there), "
                + "and “depends on the mode” where the processes of one fall into modes (listed under its table) "
                + "and one mode is faster than the other case, another slower. "
                + "Counters are per operation, the median over the processes; "
                + "“unavailable” where this case could not measure one.", "",
        ]
        if !missing.isEmpty {
            lines += [
                "Not in the tables, because no case of this run could measure them: " + missing.joined(separator: ", ")
                    + ".", "",
            ]
        }
        lines += ["Families: " + families.map { "[\($0.workload)](#\($0.workload))" }.joined(separator: " · "), ""]
        let showAllocator = Set(run.cases.map(\.benchmarkCase.allocator)).count > 1
        for family in families {
            lines += ["### \(family.workload)", ""]
            // Said once here rather than as a column of "unavailable" in every table below.
            let cases = family.parameterSets.flatMap(\.cases)
            let unmeasured = shown.filter { counter in !cases.contains { $0.counter(counter.name) != nil } }
            if !unmeasured.isEmpty {
                let reasons = unmeasured.map { counter in
                    let why = cases.lazy.compactMap { $0.unavailableReason(counter.name) }.first ?? "not recorded"
                    return "\(counter.heading) (\(why))"
                }
                lines += ["Not measured for any case of this family: " + reasons.joined(separator: "; ") + ".", ""]
            }
            if !family.contenderParameters.isEmpty {
                lines += [
                    "Contenders are backends and what "
                        + "\(family.contenderParameters.map { "`\($0)`" }.joined(separator: ", ")) names.", "",
                ]
            }
            lines += images(charts.filter { $0.section == .family(family.workload) })
            for set in family.parameterSets {
                lines +=
                    ["#### \(family.workload): \(set.title)", ""]
                    + table(
                        set, family: family, counters: shown, catalogue: catalogue, showAllocator: showAllocator,
                        allColumns: allColumns) + [""]
            }
        }
        return lines
    }

    /// The rows of one parameter set with samples, best first: the figure the family ranks by
    /// (per iteration for a loop, as the stride section and the questions give it), then at most
    /// `maximumColumns` columns in all unless `allColumns`: the counters and the workload's own
    /// figures that differ most between the contenders fill what the fixed columns leave, and the
    /// others are named under the table. A column no contender of the set measured is left out.
    static func table(
        _ set: Family.ParameterSet, family: Family, counters: [Metric], catalogue: MetricCatalogue,
        showAllocator: Bool, allColumns: Bool
    ) -> [String] {
        let standing = Standing(set.cases)
        guard let best = standing.best else {
            return ["No case of this set has samples; see “Failed and not applicable”."]
        }
        let ranking = family.ranking
        let iterations = perIteration(set, family: family)
        let scale = 1 / (iterations ?? 1)
        let figures = Set(standing.ranked.flatMap(\.measured.workloadMetricNames))
            .subtracting(Self.figureName(ranking).map { [$0] } ?? []).sorted()  // already the ranked column
        var fixed: [(String, MarkdownTable.Alignment)] = [("contender", .left)]
        if showAllocator { fixed.append(("allocator", .left)) }
        fixed += [
            (iterations == nil ? ranking.heading : "ns/iteration", .right), ("a repeat run", .right),
            ("× best", .right),
        ]
        if ranking.figure != .time { fixed += [("ns/op", .right)] }
        fixed += [("processes × samples", .right)]
        // Every optional column: its heading, each ranked row's value, and its note.
        var optional: [(heading: String, values: [Double?], note: String?)] = counters.map { counter in
            (counter.heading, standing.ranked.map { $0.measured.counter(counter.name) }, nil)
        }
        optional += figures.map { name in
            let heading: String
            if let described = catalogue[name] {
                heading = described.heading
            } else {
                let unit = standing.ranked.lazy.compactMap { $0.measured.workloadMetric(name)?.unit }.first
                heading = "\(name) (\(unit?.rawValue ?? ""))"
            }
            return (heading, standing.ranked.map { $0.measured.workloadMetric(name)?.value }, catalogue[name]?.note)
        }
        optional = optional.filter { $0.values.contains { $0 != nil } }
        let room = allColumns ? optional.count : max(2, maximumColumns - fixed.count)
        let kept = Set(
            optional.indices.sorted { spread(optional[$0].values) > spread(optional[$1].values) }.prefix(room))
        let shown = optional.indices.filter(kept.contains).map { optional[$0] }
        let left = optional.indices.filter { !kept.contains($0) }.map { optional[$0].heading }
        var table = MarkdownTable(fixed + shown.map { ($0.heading, .right) })
        for (row, (measured, estimate)) in standing.ranked.enumerated() {
            let ratio =
                row == 0
                ? "—"
                : Figures.ratio(estimate.value / best.value) + standing.againstBest(estimate)
            let records = measured.result.records
            let samples =
                Set(records.map(\.nanosecondsPerOperation.count)).count == 1
                ? "\(records.count) × \(records[0].nanosecondsPerOperation.count)"
                : "\(records.count) × \(records.map { "\($0.nanosecondsPerOperation.count)" }.joined(separator: "/"))"
            var cells = [family.contender(measured.benchmarkCase)]
            if showAllocator { cells.append(measured.benchmarkCase.allocator.rawValue) }
            cells += [
                Figures.value(estimate.value * scale),
                Figures.interval(estimate.repeatInterval.lower * scale, estimate.repeatInterval.upper * scale), ratio,
            ]
            if ranking.figure != .time { cells.append(measured.estimate.map { Figures.value($0.value) } ?? "—") }
            cells.append(samples)
            cells += shown.map { $0.values[row].map(Figures.value) ?? "unavailable" }
            table.rows.append(cells)
        }
        var notes: [String] = []
        if iterations != nil {
            notes.append("Times per iteration; counters per operation, that is per loop of the set's iterations.")
        }
        for note in shown.compactMap(\.note) where !notes.contains(note) { notes.append(note) }
        if !left.isEmpty {
            notes.append(
                "Also measured, closer between the contenders: " + left.joined(separator: ", ")
                    + " (`bench report --all-columns` shows them here; results.csv has every one).")
        }
        let label = { (measured: MeasuredCase) in
            family.contender(measured.benchmarkCase) + " (\(measured.benchmarkCase.allocator))"
        }
        let split = standing.ranked.filter { !$0.estimate.modes.isEmpty }
        let switching = standing.ranked.compactMap { measured, estimate in
            estimate.modes.isEmpty ? ModeSwitching(measured.result.records).map { (measured, $0) } : nil
        }
        let modes =
            split.isEmpty && switching.isEmpty
            ? []
            : [
                "",
                "Processes in modes (neighbours at least \(Figures.ratio(ProcessMode.separation)) apart, "
                    + "nothing between): compared with the others mode by mode; and samples of one process "
                    + "that far apart, two or more on each side.",
            ]
                + split.map { measured, estimate in
                    ModeDescription.line(measured, label: label(measured), estimate: estimate, scale: scale)
                }
                + switching.map { measured, switching in
                    ModeDescription.switchingLine(label: label(measured), switching: switching, scale: scale)
                }
        return table.lines + (notes.isEmpty ? [] : [""] + notes) + modes
    }

    /// Columns of a family table by default: what a screen shows without scrolling.
    static let maximumColumns = 8

    /// How far apart a column's values are, largest over smallest: a column that reads the same
    /// for every contender says the least. Below `rare` per operation a count is noise (a page
    /// fault in a hundred loops against none), so the smallest counts as at least that.
    static func spread(_ values: [Double?]) -> Double {
        let present = values.compactMap { $0 }.filter(\.isFinite)
        guard let high = present.max(), let low = present.min(), high > rare else { return 1 }
        return high / max(low, rare)
    }

    /// Events per operation too rare to tell contenders apart by.
    static let rare = 0.05

    /// The iterations of one loop, where the family times whole loops of them (apply-stride,
    /// apply-serial): its tables then read per iteration, as the stride section does.
    static func perIteration(_ set: Family.ParameterSet, family: Family) -> Double? {
        guard Self.loopFamilies.contains(family.workload),
            let text = set.parameters.first(where: { $0.name == ParameterName.iterations.rawValue })?.value,
            let iterations = Double(text), iterations > 0
        else { return nil }
        return iterations
    }

    static let loopFamilies: Set = [WorkloadName.applyStride.rawValue, WorkloadName.applySerial.rawValue]

    /// The workload figure a ranking ranks by; nil when it ranks by time.
    static func figureName(_ ranking: Ranking) -> String? {
        if case .workloadFigure(let name) = ranking.figure { name } else { nil }
    }

    /// `bench run --profile`'s cases: where their time went, from perf's samples of their timed
    /// samples, each with its flame graph.
    static func profileSection(_ profiles: [ProfileSummary]) -> [String] {
        var lines = [
            "## Where the time goes", "",
            "Profiled after the measurements, each case once in a child of its own under `perf record` "
                + "(\(profiles[0].how)). Self is the share of the samples running in a frame; "
                + "total, with the frame anywhere on the stack.", "",
        ]
        for profile in profiles {
            lines += [
                "### \(profile.caseID)", "",
                "\(profile.samples) samples. [Flame graph](\(profile.folder)/flamegraph.svg) "
                    + "· [folded stacks](\(profile.folder)/stacks.folded)", "",
            ]
            var table = MarkdownTable([("frame", .left), ("self", .right), ("total", .right)])
            func share(_ samples: Int) -> String {
                Figures.value(100 * Double(samples) / Double(max(profile.samples, 1))) + "%"
            }
            table.rows = profile.top.map { [$0.frame, share($0.selfSamples), share($0.totalSamples)] }
            lines += table.lines + [""]
        }
        return lines
    }

    static func failures(_ cases: [MeasuredCase]) -> [String] {
        let notApplicable = cases.filter { $0.result.notApplicable != nil }
        let failed = cases.filter { $0.result.notApplicable == nil && !$0.result.failures.isEmpty }
        var lines = ["## Failed and not applicable", ""]
        if failed.isEmpty {
            lines.append("No case failed.")
        } else {
            var table = MarkdownTable([("case", .left), ("status", .left), ("reasons", .left)])
            table.rows = failed.map {
                ["`\($0.benchmarkCase.id)`", $0.result.status, $0.result.failures.joined(separator: "; ")]
            }
            lines +=
                [
                    "A failed repetition is a crash, a hang past the deadline, garbage output or a failed self-check; "
                        + "a case with some repetitions left still appears in its table.", "",
                ] + table.lines
        }
        lines.append("")
        if notApplicable.isEmpty {
            lines.append("Every case applied.")
        } else {
            var table = MarkdownTable([("case", .left), ("why not", .left)])
            table.rows = notApplicable.map { ["`\($0.benchmarkCase.id)`", $0.result.notApplicable!] }
            lines +=
                ["Not applicable (\(notApplicable.count) cases): what a backend or this machine cannot do.", ""]
                + table.lines
        }
        return lines
    }
}

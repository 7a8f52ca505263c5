import Claims
import Results

/// The files of a report across machines (`MachineComparison`): report.md (the machines, every
/// "clearly" of any machine checked on all of them, the claims per machine, a table per family
/// with a column per machine and ratios to the first), machines.csv (tidy: one row per machine and
/// case) and the charts with a series per machine (`MachineCharts`).
public enum MachineReport {
    public static let csvFileName = "machines.csv"

    /// Every file, rendered in memory; `ResultsWriter.write(_:to:)` writes them.
    public static func outputs(of comparison: MachineComparison) -> [ResultsWriter.Output] {
        let charts = MachineCharts.all(comparison)
        return [
            ResultsWriter.Output(path: "report.md", contents: markdown(comparison, charts: charts)),
            ResultsWriter.Output(path: csvFileName, contents: csv(comparison)),
        ]
            + charts.map { ResultsWriter.Output(path: $0.file, contents: $0.svg) }
    }

    static func markdown(_ comparison: MachineComparison, charts: [ReportChart]) -> String {
        let machines = comparison.machines
        var lines = [
            "# RuntimeBench across \(machines.count) machines", "",
            "Suite **\(machines[0].run.suite)** on each machine below. A statement is checked within each machine's "
                + "own run, where its cases were measured together; figures of different machines are set side by "
                + "side only as ratios. `bench report` with the same files writes this report again.", "",
        ]
        var table = MarkdownTable([
            ("machine", .left), ("file", .left), ("CPU", .left), ("usable / online CPUs", .left),
            ("virtual machine", .left), ("kernel", .left), ("Swift", .left), ("host", .left),
            ("commit", .left), ("started (UTC)", .left),
        ])
        for machine in machines {
            let e = machine.run.environment
            table.rows.append([
                machine.label, "`\(machine.file)`", e.cpuModel,
                "\(e.usableCPUs.map { "\($0.count)" } ?? "not recorded") / \(e.onlineCPUs)",
                e.virtualMachine, e.kernel, e.swiftCompiler, e.hostname, String(e.gitCommit.prefix(12)),
                machine.run.started?.description ?? "not recorded",
            ])
        }
        lines += table.lines
        for group in comparison.alike {
            lines += [
                "",
                "\(Answers.leaders(group)) have the same identity (CPU, CPUs, virtual machine, kernel, Swift): "
                    + "runs on one machine or on machines built alike, "
                    + "so what differs between them is noise between runs.",
            ]
        }
        for machine in machines where machine.run.interrupted != nil || machine.run.countedAllocations == true {
            if let interrupted = machine.run.interrupted {
                lines += [
                    "",
                    "**\(machine.label) was interrupted** (\(interrupted)): "
                        + "its columns hold only the cases that finished.",
                ]
            }
            if machine.run.countedAllocations == true {
                lines += ["", "**\(machine.label) counted allocations**: its times include the interposer's cost."]
            }
        }
        lines +=
            [""]
            + statements(
                "What should I use, on every machine?",
                "Each parameter set's clear winner over its runner-up (system allocator), "
                    + "on whichever machine it is clear, checked on every machine: **holds** (clearly so there too), "
                    + "**tie** (that machine cannot tell them apart), **reversed**, or **not measured** there.",
                comparison.winners, machines)
        if !comparison.allocators.isEmpty {
            lines +=
                [""]
                + statements(
                    "The allocator, on every machine",
                    "Each case where jemalloc is clearly faster or slower than the system allocator on some machine.",
                    comparison.allocators, machines)
        }
        lines += [""] + claims(comparison)
        lines += [""] + caseTables(comparison)
        if !charts.isEmpty {
            lines += ["", "## Charts", "", "One series per machine."]
            lines += charts.flatMap { ["", "![\($0.title)](\($0.file))"] }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A count, then a row per statement with the outcome on each machine; those that do not hold
    /// everywhere first.
    static func statements(
        _ title: String, _ explanation: String, _ statements: [MachineComparison.Statement],
        _ machines: [MachineComparison.Machine]
    ) -> [String] {
        var lines = ["## \(title)", "", explanation, ""]
        guard !statements.isEmpty else { return lines + ["No machine's run states any."] }
        let everywhere = statements.filter(\.holdsEverywhere).count
        lines += [
            "\(everywhere) of \(statements.count) hold on every machine."
                + (everywhere == statements.count
                    ? "" : " Those that do not come first, with the machines where they do not."),
            "",
        ]
        var table = MarkdownTable(
            [("statement", .left)] + machines.map { ($0.label, .left) } + [("on every machine", .left)])
        for statement in statements.filter({ !$0.holdsEverywhere }) + statements.filter(\.holdsEverywhere) {
            let exceptions = statement.exceptions(machines)
            let summary =
                exceptions.isEmpty
                ? "yes"
                : "no: " + exceptions.map { "\(word($0.outcome)) on \($0.label)" }.joined(separator: ", ")
            table.rows.append([statement.text] + statement.outcomes.map(word) + [summary])
        }
        return lines + table.lines
    }

    /// An outcome in a machine's words: Agreement's "not in the repeat" is "not measured" here.
    static func word(_ outcome: Agreement.Statement.Outcome) -> String {
        outcome == .missing ? "not measured" : outcome.rawValue
    }

    static func claims(_ comparison: MachineComparison) -> [String] {
        guard !comparison.claims.isEmpty else { return [] }
        var table = MarkdownTable(
            [("claim", .left)] + comparison.machines.map { ($0.label, .left) } + [("the same on every machine", .left)])
        for claim in comparison.claims {
            let decided = Set(claim.verdicts.compactMap { $0 })
            let same =
                decided.count == 1 && !claim.verdicts.contains(nil)
                ? "yes"
                : "no: "
                    + Verdict.allCases.compactMap { verdict in
                        let labels = zip(comparison.machines, claim.verdicts).filter { $0.1 == verdict }.map(\.0.label)
                        return labels.isEmpty ? nil : "\(verdict.rawValue) on \(labels.joined(separator: ", "))"
                    }.joined(separator: "; ")
            table.rows.append(
                ["`\(claim.claim)`: “\(claim.statement)”"] + claim.verdicts.map { $0?.rawValue ?? "not judged" } + [
                    same
                ])
        }
        return [
            "## Claims of the dispatch guide, per machine", "",
            "Each machine's verdict, decided on its own run as its own report decides it.", "",
        ] + table.lines
    }

    /// A table per family: per case, each machine's figure and, after the first, its ratio to M1's.
    static func caseTables(_ comparison: MachineComparison) -> [String] {
        let machines = comparison.machines
        let byMachine = machines.map { machine in
            Dictionary(machine.cases.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { a, _ in a })
        }
        var lines = [
            "## Every case, per machine", "",
            "Each figure is the machine's median ns per operation (or the family's own figure) "
                + "with the interval 95 of 100 repeat runs on that machine should fall in; "
                + "a ratio is the machine's figure over M1's, **bold** where their intervals do not overlap. — "
                + "means the case was not measured there.",
        ]
        var order: [String] = []
        var byWorkload: [String: [String]] = [:]
        for id in comparison.caseIDs {
            guard let measured = byMachine.lazy.compactMap({ $0[id] }).first else { continue }
            let workload = measured.benchmarkCase.workload
            if byWorkload[workload] == nil { order.append(workload) }
            byWorkload[workload, default: []].append(id)
        }
        for workload in order {
            let heading =
                byMachine.lazy.compactMap { $0[byWorkload[workload]![0]]?.ranking.heading }.first
                ?? Ranking.time.heading
            var columns: [(String, MarkdownTable.Alignment)] = [("case", .left)]
            for machine in machines {
                columns.append(("\(machine.label) \(heading)", .right))
                if machine.label != machines[0].label { columns.append(("\(machine.label) ÷ M1", .right)) }
            }
            var table = MarkdownTable(columns)
            for id in byWorkload[workload]! {
                let figures = byMachine.map { $0[id]?.ranked }
                var row = [String(id.dropFirst(workload.count + 1))]
                for (index, figure) in figures.enumerated() {
                    row.append(
                        figure.map { "\(Figures.value($0.value)) (\(Figures.interval($0.repeatInterval)))" } ?? "—")
                    guard index > 0 else { continue }
                    guard let figure, let first = figures[0] else { row.append("—"); continue }
                    let ratio = Figures.ratio(figure.value / first.value)
                    row.append(Faster(figure, first) == .neither ? ratio : "**\(ratio)**")
                }
                table.rows.append(row)
            }
            lines += ["", "### \(workload)", ""] + table.lines
        }
        return lines
    }

    /// machines.csv: one row per machine and case, the machine's label and file, the case's
    /// columns as results.csv names them, its figure with its repeat interval, and the ratio to M1.
    static func csv(_ comparison: MachineComparison) -> String {
        let columns = [
            "machine", "file", "case_id", "workload", "backend", "parameters", "allocator", "metric", "value",
            "repeat95_low", "repeat95_high", "ratio_to_m1",
        ]
        let first = Dictionary(
            comparison.machines[0].cases.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { a, _ in a })
        var lines = [ResultsCSV.row(columns)]
        for machine in comparison.machines {
            for measured in machine.cases {
                let c = measured.benchmarkCase
                let metric =
                    switch measured.ranking.figure {
                    case .time: "ns_per_op"
                    case .workloadFigure(let name): name
                    }
                let prefix = [
                    machine.label, machine.file, c.id, c.workload, c.backend,
                    c.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ","), c.allocator.rawValue, metric,
                ]
                guard let figure = measured.ranked else {
                    lines.append(ResultsCSV.row(prefix + ["", "", "", ""]))
                    continue
                }
                let ratio = first[c.id]?.ranked.map { figure.value / $0.value }
                lines.append(
                    ResultsCSV.row(
                        prefix + [
                            ResultsCSV.number(figure.value), ResultsCSV.number(figure.repeatInterval.lower),
                            ResultsCSV.number(figure.repeatInterval.upper), ratio.map(ResultsCSV.number) ?? "",
                        ]))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

import Charts
import Results

/// The charts of a report across machines: where a run's report draws one chart per backend, this
/// draws one per backend (or contender) with a series per machine. Stride curves: per body cost
/// and backend, ns per iteration by stride. Thread scaling of queue-vs-lock: per setting and
/// contender, ns per critical section by contending threads, each machine's thread counts
/// resolved on its own CPUs. System allocator throughout, as each subtitle says; the bands are
/// repeat intervals, since the points of one chart come from different runs.
enum MachineCharts {
    static func all(_ comparison: MachineComparison) -> [ReportChart] {
        strideCharts(comparison) + scalingCharts(comparison)
    }

    static func strideCharts(_ comparison: MachineComparison) -> [ReportChart] {
        let strides = comparison.machines.map { StrideFigures($0.cases) }
        var settings: [(title: String, stem: String)] = []
        for figures in strides {
            for setting in figures.settings
            where setting.isSweep && !settings.contains(where: { $0.title == setting.title }) {
                settings.append((setting.title, setting.fileStem))
            }
        }
        return settings.flatMap { setting -> [ReportChart] in
            // Backend → per machine, that machine's curve at this setting.
            var backends: [String] = []
            var curves: [String: [(label: String, curve: StrideFigures.Curve)]] = [:]
            for (machine, figures) in zip(comparison.machines, strides) {
                for curve in figures.settings.first(where: { $0.title == setting.title })?.curves ?? []
                where curve.points.count >= 2 {
                    if curves[curve.backend] == nil { backends.append(curve.backend) }
                    curves[curve.backend, default: []].append((machine.label, curve))
                }
            }
            return backends.map { backend in
                let series = curves[backend]!.map { entry in
                    LineChart.Series(
                        name: entry.label,
                        points: entry.curve.points.map { one in
                            guard let estimate = one.estimate, estimate.value > 0 else {
                                return LineChart.Point(x: Double(one.stride), y: one.nanosecondsPerIteration)
                            }
                            return ReportChart.point(
                                x: Double(one.stride), estimate, factor: one.nanosecondsPerIteration / estimate.value,
                                caseID: "\(entry.label): \(one.caseID)", per: "iteration", band: .repeat)
                        })
                }
                let title = "apply-stride, \(setting.title), \(backend): ns per iteration by stride, per machine"
                let chart = LineChart(
                    title: title, subtitle: ReportChart.allocatorSubtitle,
                    x: .init(label: "stride: iterations per block (log scale)", scale: .logarithmic),
                    y: .init(label: "ns per iteration, median (log scale)", scale: .logarithmic),
                    series: series, bandLegend: ReportChart.Band.repeat.legend)
                return ReportChart(
                    file: ReportChart.fileName("\(setting.stem)-\(backend)"), title: title, section: .stride,
                    svg: chart.svg())
            }
        }
    }

    static func scalingCharts(_ comparison: MachineComparison) -> [ReportChart] {
        // (setting, contender) → per machine, its (threads, ns) points.
        var keys: [(setting: [Parameter], contender: String)] = []
        var points: [String: [String: [LineChart.Point]]] = [:]
        func key(_ setting: [Parameter], _ contender: String) -> String {
            setting.map { "\($0.name)=\($0.value)" }.joined(separator: ", ") + " · " + contender
        }
        for machine in comparison.machines {
            let cpus = machine.run.environment.cpusAtOnce
            for family in Family.arrange(machine.cases) where family.workload == ReportChart.scalingWorkload {
                for set in family.parameterSets {
                    let setting = set.parameters.filter { $0.name != ReportChart.threadsParameter }
                    for measured in set.cases where measured.benchmarkCase.allocator == .system {
                        guard
                            let count = measured.benchmarkCase.parameter(ReportChart.threadsParameter).flatMap(
                                ThreadCount.init),
                            let estimate = measured.estimate
                        else { continue }
                        let contender = family.contender(measured.benchmarkCase)
                        let name = key(setting, contender)
                        if points[name] == nil { keys.append((setting, contender)) }
                        points[name, default: [:]][machine.label, default: []].append(
                            ReportChart.point(
                                x: Double(count.resolved(cpus: cpus)), estimate,
                                caseID: "\(machine.label): \(measured.benchmarkCase.id)", per: "critical section",
                                band: .repeat))
                    }
                }
            }
        }
        return keys.compactMap { setting, contender in
            let byMachine = points[key(setting, contender)]!
            let series = comparison.machines.compactMap { machine -> LineChart.Series? in
                guard let line = byMachine[machine.label] else { return nil }
                let cpus = machine.run.environment.cpusAtOnce
                return LineChart.Series(
                    name: "\(machine.label) (\(cpus) CPU\(cpus == 1 ? "" : "s"))", points: line.sorted { $0.x < $1.x })
            }
            guard Set(byMachine.values.flatMap { $0.map(\.x) }).count >= 2 else { return nil }
            let settingText = setting.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
            let title =
                "\(ReportChart.scalingWorkload), \(settingText), \(contender): ns per section by threads, per machine"
            let chart = LineChart(
                title: title, subtitle: ReportChart.allocatorSubtitle,
                x: .init(label: "contending threads", scale: .linear),
                y: .init(label: "ns per critical section, median (log scale)", scale: .logarithmic),
                series: series, bandLegend: ReportChart.Band.repeat.legend)
            let stem = "scaling-" + setting.map { "\($0.name)-\($0.value)" }.joined(separator: "-") + "-\(contender)"
            return ReportChart(
                file: ReportChart.fileName(stem), title: title, section: .family(ReportChart.scalingWorkload),
                svg: chart.svg())
        }
    }
}

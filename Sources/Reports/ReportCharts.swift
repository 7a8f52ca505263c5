import CaseCatalogue
import Charts
import Results

/// The report's charts, each an SVG file under charts/ with the section of the report that links
/// it: stride curves (one per body cost), thread scaling of queue-vs-lock (one per setting and
/// backend: the locks that need no backend beside that backend's queue and semaphore guards),
/// percentile charts for every figure a workload reports as percentiles (hand-off latency,
/// notify latency), and the first screen's answers (`QuestionCharts`). System allocator
/// throughout, as each chart's subtitle says. Points carry their case, figure, comparison
/// interval (drawn as a band) and processes.
struct ReportChart {
    enum Section: Equatable { case stride, family(String) }

    let file: String
    let title: String
    let section: Section
    let svg: String

    static let directory = OutputDirectory.chartsFolder
    static let scalingWorkload = WorkloadName.queueVsLock.rawValue
    static let threadsParameter = ParameterName.threads.rawValue

    static func all(families: [Family], strides: StrideFigures, cases: [MeasuredCase], cpus: Int) -> [ReportChart] {
        strideCharts(strides) + families.flatMap { scalingCharts($0, cpus: cpus) + percentileCharts($0) }
            + QuestionCharts.all(cases)
    }

    /// Every chart of a run's report draws the system allocator's cases: said under each title.
    static let allocatorSubtitle = "\(Allocator.system.rawValue) allocator"
    /// Which interval a chart's bands draw. Cases of one run are compared with the comparison
    /// interval (`Faster` reads the same); runs on different machines or days with the repeat
    /// interval, which allows for a whole sitting moving.
    enum Band {
        case comparison, `repeat`

        var name: String {
            switch self {
            case .comparison: "comparison interval"
            case .repeat: "repeat interval"
            }
        }

        var legend: String { "band: \(name) (95%)" }

        func of(_ estimate: CaseEstimate) -> RepeatInterval {
            switch self {
            case .comparison: estimate.comparisonInterval
            case .repeat: estimate.repeatInterval
            }
        }
    }

    /// A chart point for a case: its figure (times `factor`: per iteration from per apply), its
    /// `band` interval, and what a reader hovering it is told.
    static func point(
        x: Double, _ estimate: CaseEstimate, factor: Double = 1, caseID: String, per unit: String,
        band: Band = .comparison
    ) -> LineChart.Point {
        let scaled = factor == 1 ? estimate : estimate.scaled(by: factor)
        let interval = band.of(scaled)
        return LineChart.Point(
            x: x, y: scaled.value, interval: (interval.lower, interval.upper),
            note: LineChart.Note(
                subject: caseID, figure: "\(Figures.nanoseconds(scaled.value)) per \(unit)",
                interval: "\(band.name) " + Figures.interval(interval) + (interval.upper.isFinite ? " ns" : ""),
                processes: scaled.processes))
    }

    static func strideCharts(_ strides: StrideFigures) -> [ReportChart] {
        // A curve needs two strides: with stride 1 alone (and the automatic one) the table says it all.
        strides.settings.filter(\.isSweep).compactMap { setting in
            let series = setting.curves.compactMap { curve -> LineChart.Series? in
                let points = curve.points.map { one -> LineChart.Point in
                    guard let estimate = one.estimate, estimate.value > 0 else {
                        return LineChart.Point(x: Double(one.stride), y: one.nanosecondsPerIteration)
                    }
                    return point(
                        x: Double(one.stride), estimate, factor: one.nanosecondsPerIteration / estimate.value,
                        caseID: one.caseID, per: "iteration")
                }
                // The automatic stride in its backend's colour, where it landed: at the stride it chose.
                var automatic: [LineChart.Point] = []
                if let time = curve.automatic, let stride = curve.automaticStride, stride >= 1 {
                    if let estimate = curve.automaticEstimate, let caseID = curve.automaticCaseID, estimate.value > 0 {
                        automatic = [
                            point(x: stride, estimate, factor: time / estimate.value, caseID: caseID, per: "iteration")
                        ]
                    } else {
                        automatic = [LineChart.Point(x: stride, y: time)]
                    }
                }
                guard !points.isEmpty || !automatic.isEmpty else { return nil }
                return LineChart.Series(name: curve.backend, points: points, separatePoints: automatic)
            }
            guard !series.isEmpty else { return nil }
            let reference = setting.serialLoop.map { [LineChart.Series(name: "serial loop", reference: $0)] } ?? []
            let title = "apply-stride, \(setting.title): ns per iteration by stride"
            let chart = LineChart(
                title: title, subtitle: allocatorSubtitle,
                x: .init(label: "stride: iterations per block (log scale)", scale: .logarithmic),
                y: .init(label: "ns per iteration, median (log scale)", scale: .logarithmic),
                series: series + reference, bandLegend: Band.comparison.legend,
                separateLegend: "automatic stride, at the stride it chose")
            return ReportChart(file: fileName(setting.fileStem), title: title, section: .stride, svg: chart.svg())
        }
    }

    static func scalingCharts(_ family: Family, cpus: Int) -> [ReportChart] {
        guard family.workload == scalingWorkload else { return [] }
        // Settings: every parameter but the contender ones and the thread count.
        var order: [[Parameter]] = []
        var bySetting: [[Parameter]: [MeasuredCase]] = [:]
        for set in family.parameterSets {
            for measured in set.cases where measured.benchmarkCase.allocator == .system && measured.estimate != nil {
                let key = set.parameters.filter { $0.name != threadsParameter }
                if bySetting[key] == nil { order.append(key) }
                bySetting[key, default: []].append(measured)
            }
        }
        return order.flatMap { key -> [ReportChart] in
            let members = bySetting[key]!
            let backendless = members.filter { $0.benchmarkCase.backend == BenchmarkCase.noBackend }
            var backends: [String] = []
            for measured in members
            where measured.benchmarkCase.backend != BenchmarkCase.noBackend
                && !backends.contains(measured.benchmarkCase.backend)
            {
                backends.append(measured.benchmarkCase.backend)
            }
            let groups =
                backends.isEmpty
                ? [(nil as String?, backendless)]
                : backends.map { backend in
                    (backend, backendless + members.filter { $0.benchmarkCase.backend == backend })
                }
            return groups.compactMap { backend, cases in
                scalingChart(family, setting: key, backend: backend, cases: cases, cpus: cpus)
            }
        }
    }

    /// `cpus`: how many the run's children could use at once, what "2xcpus" resolved to.
    private static func scalingChart(
        _ family: Family, setting: [Parameter], backend: String?, cases: [MeasuredCase],
        cpus: Int
    ) -> ReportChart? {
        var names: [String] = []
        var points: [String: [LineChart.Point]] = [:]
        var ticks: [Double: String] = [:]
        for measured in cases {
            guard let count = measured.benchmarkCase.parameter(threadsParameter).flatMap(ThreadCount.init),
                let estimate = measured.estimate
            else { continue }
            let threads = count.resolved(cpus: cpus)
            ticks[Double(threads)] =
                switch count {
                case .fixed: "\(threads)"
                case .perCPU(let factor): "\(threads) (\(factor) per CPU)"
                }
            let name = family.contender(measured.benchmarkCase)
            if points[name] == nil { names.append(name) }
            points[name, default: []].append(
                point(x: Double(threads), estimate, caseID: measured.benchmarkCase.id, per: "critical section"))
        }
        guard ticks.count >= 2 else { return nil }
        let settingText = setting.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        let title = "\(family.workload), \(settingText)\(backend.map { ", \($0)" } ?? ""): ns per section by threads"
        let chart = LineChart(
            title: title, subtitle: allocatorSubtitle,
            x: .init(
                label: "contending threads (this machine: \(cpus) CPUs)", scale: .linear,
                ticks: ticks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
            y: .init(label: "ns per critical section, median (log scale)", scale: .logarithmic),
            series: names.map { LineChart.Series(name: $0, points: points[$0]!.sorted { $0.x < $1.x }) },
            bandLegend: Band.comparison.legend)
        let stem =
            "scaling-" + setting.map { "\($0.name)-\($0.value)" }.joined(separator: "-")
            + (backend.map { "-\($0)" } ?? "")
        return ReportChart(file: fileName(stem), title: title, section: .family(family.workload), svg: chart.svg())
    }

    /// A chart per parameter set and per figure reported as percentiles ("handoff_ns.p50",
    /// "handoff_ns.p99"): one row per contender.
    static func percentileCharts(_ family: Family) -> [ReportChart] {
        family.parameterSets.flatMap { set -> [ReportChart] in
            let measured = set.cases.filter { $0.benchmarkCase.allocator == .system }
            var figures: [String: Set<String>] = [:]
            for name in measured.flatMap(\.workloadMetricNames) {
                guard let dot = name.lastIndex(of: "."), name[name.index(after: dot)...].first == "p",
                    Double(name[name.index(dot, offsetBy: 2)...]) != nil
                else { continue }
                figures[String(name[..<dot]), default: []].insert(String(name[name.index(after: dot)...]))
            }
            return figures.keys.sorted().compactMap { figure in
                let marks = figures[figure]!.sorted { Double($0.dropFirst())! < Double($1.dropFirst())! }
                let rows = measured.compactMap { one -> PercentileChart.Row? in
                    let values = marks.map { one.workloadMetric("\(figure).\($0)")?.value }
                    return values.contains { $0 != nil }
                        ? PercentileChart.Row(name: family.contender(one.benchmarkCase), values: values) : nil
                }
                let unit =
                    measured.lazy.compactMap { $0.workloadMetric("\(figure).\(marks[0])")?.unit.rawValue }.first ?? ""
                guard !rows.isEmpty, rows.allSatisfy({ $0.values.allSatisfy { ($0 ?? 1) > 0 } }) else { return nil }
                let title = "\(family.workload), \(set.title): \(figure) percentiles"
                let chart = PercentileChart(
                    title: title, subtitle: allocatorSubtitle,
                    axisLabel: "\(figure), \(unit) (log scale; median of the processes' percentiles)",
                    marks: marks, rows: rows)
                let stem =
                    "\(family.workload)-" + set.parameters.map { "\($0.name)-\($0.value)" }.joined(separator: "-")
                    + "-\(figure)"
                return ReportChart(
                    file: fileName(stem), title: title, section: .family(family.workload), svg: chart.svg())
            }
        }
    }

    /// charts/<stem>.svg with every character outside [a-z0-9.-] turned into "-".
    static func fileName(_ stem: String) -> String {
        let safe = String(
            stem.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        return "\(directory)/\(safe).svg"
    }
}

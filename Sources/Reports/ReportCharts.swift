import CaseCatalogue
import Charts
import Results

/// The report's charts, each an SVG file under charts/ with the section of the report that links
/// it: stride curves (one per body cost), thread scaling of queue-vs-lock (one per setting and
/// backend: the locks that need no backend beside that backend's queue and semaphore guards),
/// and percentile charts for every figure a workload reports as percentiles (hand-off latency,
/// notify latency). System allocator throughout.
struct ReportChart {
    enum Section: Equatable { case stride, family(String) }

    let file: String
    let title: String
    let section: Section
    let svg: String

    static let directory = OutputDirectory.chartsFolder
    static let scalingWorkload = WorkloadName.queueVsLock.rawValue
    static let threadsParameter = ParameterName.threads.rawValue

    static func all(families: [Family], strides: StrideFigures, cpus: Int) -> [ReportChart] {
        strideCharts(strides) + families.flatMap { scalingCharts($0, cpus: cpus) + percentileCharts($0) }
    }

    static func strideCharts(_ strides: StrideFigures) -> [ReportChart] {
        // A curve needs two strides: with stride 1 alone (and the automatic one) the table says it all.
        strides.settings.filter(\.isSweep).compactMap { setting in
            let series = setting.curves.filter { !$0.points.isEmpty }.map { curve in
                LineChart.Series(
                    name: curve.backend, points: curve.points.map { (Double($0.stride), $0.nanosecondsPerIteration) })
            }
            // The automatic stride as one marker per backend, where it landed: at the stride it chose.
            let automatic = setting.curves.compactMap { curve -> LineChart.Series? in
                guard let time = curve.automatic, let stride = curve.automaticStride, stride >= 1 else { return nil }
                return LineChart.Series(name: "\(curve.backend), automatic", points: [(stride, time)])
            }
            guard !series.isEmpty else { return nil }
            let reference = setting.serialLoop.map { [LineChart.Series(name: "serial loop", reference: $0)] } ?? []
            let title = "apply-stride, \(setting.title): ns per iteration by stride"
            let chart = LineChart(
                title: title,
                x: .init(label: "stride: iterations per block (log scale)", scale: .logarithmic),
                y: .init(label: "ns per iteration, median (log scale)", scale: .logarithmic),
                series: series + automatic + reference)
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
        var points: [String: [(x: Double, y: Double)]] = [:]
        var ticks: [Double: String] = [:]
        for measured in cases {
            guard let count = measured.benchmarkCase.parameter(threadsParameter).flatMap(ThreadCount.init),
                let median = measured.estimate?.value
            else { continue }
            let threads = count.resolved(cpus: cpus)
            ticks[Double(threads)] =
                switch count {
                case .fixed: "\(threads)"
                case .perCPU(let factor): "\(threads) (\(factor) per CPU)"
                }
            let name = family.contender(measured.benchmarkCase)
            if points[name] == nil { names.append(name) }
            points[name, default: []].append((Double(threads), median))
        }
        guard ticks.count >= 2 else { return nil }
        let settingText = setting.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        let title = "\(family.workload), \(settingText)\(backend.map { ", \($0)" } ?? ""): ns per section by threads"
        let chart = LineChart(
            title: title,
            x: .init(
                label: "contending threads (this machine: \(cpus) CPUs)", scale: .linear,
                ticks: ticks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
            y: .init(label: "ns per critical section, median (log scale)", scale: .logarithmic),
            series: names.map { LineChart.Series(name: $0, points: points[$0]!.sorted { $0.x < $1.x }) })
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
                    title: title, axisLabel: "\(figure), \(unit) (log scale; median of the processes' percentiles)",
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

import Results

/// How far apart a case's processes ran, in each of several runs of one suite: the slowest
/// process's figure over the fastest's.
///
/// A runtime whose cost depends on which process a user happens to get cannot be planned on, so a
/// case whose slowest process took more than `limit` times its fastest is worth a look. One run
/// cannot say whose the spread is: on a shared machine it measures the sitting too (on the 2-core
/// VM, the same build's three backends had 8 cases over 2× in one full run and 28 in the next, an
/// hour later). Two things tell them apart:
/// - each process's probe of how far apart two CPUs were (`CPUHop`): a process whose cache line
///   took over `RunCPUHops.farFactor` times the run's median between CPUs, or under
///   `RunCPUHops.nearFactor` times it at either end, ran on another machine, in effect, and the
///   spread is also given without such processes ("steady");
/// - the runs: a case over the limit in every run is the runtime's; one over it in some runs only
///   may be the machine's.
/// For each case, the counters per operation that differ between its fastest and its slowest
/// process say what the slow one did (`ModeDescription.differingCounters`), and processes whose
/// own samples switched between modes say the mode changes as a process runs (`ModeSwitching`).
public struct ProcessSpread: Sendable {
    /// A slowest process more than this many times the fastest makes the spread wide.
    public static let limit = 2.0
    /// Counters differing by this factor between the fastest and the slowest process are named.
    public static var counterRatio: Double { ModeDescription.counterRatio }

    /// One case over the limit in at least one run.
    public struct Wide: Sendable {
        public let caseID: String
        /// Per run, slowest over fastest process; nil where the run lacks the case or has fewer
        /// than two processes of it.
        public let ratios: [Double?]
        /// The same without the processes whose CPUs were far apart or near (all of them where no process
        /// was probed); nil where fewer than two processes remain.
        public let steadyRatios: [Double?]
        /// The fastest and the slowest process's figures in the run where the spread was widest,
        /// in the unit `shown` gives.
        public let fastest: Double
        public let slowest: Double
        /// Those two processes' CPU hops (`CPUHop.nanoseconds`), where probed.
        public let fastestHop: Double?
        public let slowestHop: Double?
        /// The counters (per operation) whose values differ by `ModeDescription.counterRatio` or
        /// more between those two processes, with those values (fastest process first), the most
        /// different first.
        public let differing: [(name: String, values: [Double])]
        /// In that run, the processes whose samples switched between modes as they ran, where
        /// enough did (`ModeSwitching`): then a process's figure is a mix, and the spread between
        /// processes is how differently they mixed.
        public let switching: ModeSwitching?
        /// In that run, the other contender of the case's parameter set and allocator with the
        /// fastest median process, for a case ranked by time: whether a slow process of this case
        /// is slow beside what else a user could pick, and whether that has the same modes.
        public let rival: Rival?
        let ranking: Ranking

        /// Runs that measured the case.
        public var measuredRuns: Int { ratios.compactMap { $0 }.count }
        /// Runs in which it was over the limit.
        public var wideRuns: Int { Self.over(ratios) }
        /// Runs in which it was over the limit without the processes whose CPUs were far apart or near.
        public var steadyWideRuns: Int { Self.over(steadyRatios) }
        /// Over the limit in every run that measured it (with two runs or more).
        public var inEveryRun: Bool { measuredRuns >= 2 && wideRuns == measuredRuns }
        /// The same, without the processes whose CPUs were far apart or near: the runtime's own.
        public var steadyInEveryRun: Bool { measuredRuns >= 2 && steadyWideRuns == measuredRuns }
        /// "3.9 µs" for a figure of this case.
        public func shown(_ value: Double) -> String { ranking.shown(value) }

        private static func over(_ ratios: [Double?]) -> Int {
            ratios.compactMap { $0 }.filter { $0 > ProcessSpread.limit }.count
        }
    }

    /// Another contender's processes, fastest, median and slowest, beside a wide case's.
    public struct Rival: Sendable, Equatable {
        /// As the report's table names it: "libdispatch-c", "none · posix".
        public let contender: String
        public let fastest: Double
        public let median: Double
        public let slowest: Double
    }

    /// Per run: the cases with two processes or more, those over the limit, and those over it
    /// without the processes whose CPUs were far apart or near.
    public let casesPerRun: [Int]
    public let widePerRun: [Int]
    public let steadyWidePerRun: [Int]
    /// Per run: the processes probed, those whose CPUs were far apart, and those whose CPUs were
    /// near (`RunCPUHops`).
    public let probedPerRun: [Int]
    public let farPerRun: [Int]
    public let nearPerRun: [Int]
    /// Every case over the limit in some run: those over it without far CPUs in more runs first,
    /// then in more runs, then the widest.
    public let wide: [Wide]

    private typealias Process = (record: CaseRecord, value: Double)
    private struct Widest {
        let ratio: Double
        let measured: MeasuredCase
        let fastest: Process
        let slowest: Process
        let rival: Rival?
    }

    public init(_ runs: [RunResults]) {
        var ratios: [String: [Double?]] = [:], steadyRatios: [String: [Double?]] = [:]
        var widest: [String: Widest] = [:]
        var order: [String] = []
        var cases: [Int] = [], wide: [Int] = [], steadyWide: [Int] = [], probed: [Int] = [], far: [Int] = []
        var near: [Int] = []
        for (index, run) in runs.enumerated() {
            let hops = RunCPUHops(run.cases.flatMap(\.records))
            probed.append(hops.probed)
            far.append(hops.far)
            near.append(hops.near)
            var caseCount = 0, wideCount = 0, steadyCount = 0
            let all = MeasuredCase.all(run, estimates: RunEstimates(run.cases))
            let sorted = Dictionary(all.map { ($0.benchmarkCase.id, Self.processes($0)) }) { first, _ in first }
            let rivals = Self.rivals(all, processes: sorted)
            for measured in all {
                let id = measured.benchmarkCase.id
                let processes = sorted[id] ?? []
                guard let first = processes.first, let last = processes.last, processes.count >= 2 else { continue }
                let ratio = last.value / first.value
                let steady = processes.filter { hops.isUsual($0.record) }
                let steadyRatio = steady.count >= 2 ? steady.last!.value / steady.first!.value : nil
                caseCount += 1
                if ratio > Self.limit { wideCount += 1 }
                if (steadyRatio ?? 0) > Self.limit { steadyCount += 1 }
                if ratios[id] == nil {
                    ratios[id] = Array(repeating: nil, count: runs.count)
                    steadyRatios[id] = Array(repeating: nil, count: runs.count)
                    order.append(id)
                }
                ratios[id]![index] = ratio
                steadyRatios[id]![index] = steadyRatio
                if ratio > (widest[id]?.ratio ?? 0) {
                    widest[id] = Widest(
                        ratio: ratio, measured: measured, fastest: first, slowest: last, rival: rivals[id])
                }
            }
            cases.append(caseCount)
            wide.append(wideCount)
            steadyWide.append(steadyCount)
        }
        casesPerRun = cases
        widePerRun = wide
        steadyWidePerRun = steadyWide
        probedPerRun = probed
        farPerRun = far
        nearPerRun = near
        self.wide = order.compactMap { id -> Wide? in
            guard let widest = widest[id], widest.ratio > Self.limit else { return nil }
            let differing = ModeDescription.differingCounters(
                widest.measured.result, groups: [[widest.fastest.record], [widest.slowest.record]])
            return Wide(
                caseID: id, ratios: ratios[id]!, steadyRatios: steadyRatios[id]!, fastest: widest.fastest.value,
                slowest: widest.slowest.value, fastestHop: widest.fastest.record.cpuHop?.nanoseconds,
                slowestHop: widest.slowest.record.cpuHop?.nanoseconds,
                differing: differing.map { (name: $0.0, values: $0.1) },
                switching: ModeSwitching(widest.measured.result.records), rival: widest.rival,
                ranking: widest.measured.ranking)
        }.sorted { a, b in
            if a.steadyWideRuns != b.steadyWideRuns { return a.steadyWideRuns > b.steadyWideRuns }
            if a.wideRuns != b.wideRuns { return a.wideRuns > b.wideRuns }
            return a.slowest / a.fastest > b.slowest / b.fastest
        }
    }

    /// A case's processes by its ranking's figure, positive and finite, fastest first.
    private static func processes(_ measured: MeasuredCase) -> [Process] {
        measured.result.records.compactMap { record in
            measured.ranking.value(of: record).flatMap { $0 > 0 && $0.isFinite ? (record, $0) : nil }
        }.sorted { $0.value < $1.value }
    }

    /// Per case ranked by time, the other contender of its parameter set and allocator with the
    /// fastest median process; `processes` holds each case's, by id, as `processes(_:)` sorts them.
    private static func rivals(_ cases: [MeasuredCase], processes: [String: [Process]]) -> [String: Rival] {
        var found: [String: Rival] = [:]
        for family in Family.arrange(cases.filter { $0.ranking.figure == .time }) {
            for set in family.parameterSets {
                let contenders = set.cases.compactMap { measured -> (MeasuredCase, Rival)? in
                    let processes = processes[measured.benchmarkCase.id] ?? []
                    guard let first = processes.first, let last = processes.last else { return nil }
                    let rival = Rival(
                        contender: family.contender(measured.benchmarkCase), fastest: first.value,
                        median: SampleStatistics.percentile(processes.map(\.value), 0.5), slowest: last.value)
                    return (measured, rival)
                }
                for (measured, _) in contenders {
                    found[measured.benchmarkCase.id] =
                        contenders.filter {
                            $0.0.benchmarkCase.id != measured.benchmarkCase.id
                                && $0.0.benchmarkCase.allocator == measured.benchmarkCase.allocator
                        }
                        .min { $0.1.median < $1.1.median }?.1
                }
            }
        }
        return found
    }

    /// The cases over the limit in every run that measured them.
    public var inEveryRun: [Wide] { wide.filter(\.inEveryRun) }
    /// The same, without the processes whose CPUs were far apart or near: the runtimes' own.
    public var steadyInEveryRun: [Wide] { wide.filter(\.steadyInEveryRun) }
}

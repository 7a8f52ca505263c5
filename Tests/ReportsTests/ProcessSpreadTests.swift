import Results
import Reports
import Testing

/// `ProcessSpread` over hand-made runs: a case whose slowest process took over twice its fastest is
/// wide in that run, counted per run and judged over all of them, and named with the counters
/// that differ between the two processes.
@Suite("spread between processes over several runs")
struct ProcessSpreadTests {
    static let outside = "spawn/work-stealing/pattern=outside/system"

    /// The fixture with the second process of `outside` run `factor` times slower, and its
    /// context switches per operation set to `switches` (the first process's: 0.001). With
    /// `slowHop`, every process has a CPU hop of 25 ns but that one, whose hop is `slowHop`.
    static func slowSecondProcess(_ factor: Double, switches: Double, slowHop: Double? = nil) -> RunResults {
        var run = Fixture.run
        run.cases = run.cases.map { result in
            var result = result
            result.records = result.records.map { record in
                let slow = result.benchmarkCase.id == outside && record.repetition == 1
                var counters = record.metricsPerOperation
                if result.benchmarkCase.id == outside { counters["context-switches"] = slow ? switches : 0.001 }
                let hop = slowHop.map { CPUHop(cpus: [0, 1], beforeNanoseconds: 25, afterNanoseconds: slow ? $0 : 25) }
                return CaseRecord(
                    caseID: record.caseID, repetition: record.repetition, batch: record.batch,
                    nanosecondsPerOperation: record.nanosecondsPerOperation.map { slow ? $0 * factor : $0 },
                    metricsPerOperation: counters, unavailable: record.unavailable,
                    workloadMetrics: record.workloadMetrics, cpus: record.cpus, cpuHop: hop)
            }
            return result
        }
        return run
    }

    @Test("the fixture's processes agree within 2×: no case is wide")
    func narrow() {
        let spread = ProcessSpread([Fixture.run, Fixture.run])
        #expect(spread.wide.isEmpty && spread.widePerRun == [0, 0])
        #expect(spread.casesPerRun[0] > 0 && spread.casesPerRun[0] == spread.casesPerRun[1])
    }

    @Test("a case wide in one run of two is listed, but not as wide in every run")
    func oneRun() throws {
        let spread = ProcessSpread([Fixture.run, Self.slowSecondProcess(3, switches: 0.5)])
        #expect(spread.widePerRun == [0, 1])
        let wide = try #require(spread.wide.first)
        #expect(spread.wide.count == 1 && wide.caseID == Self.outside)
        #expect(wide.ratios[0] == 1 && wide.ratios[1] == 3)
        #expect(wide.wideRuns == 1 && wide.measuredRuns == 2 && !wide.inEveryRun && spread.inEveryRun.isEmpty)
        #expect(wide.fastest == 50 && wide.slowest == 150 && wide.switching == nil)
        // The slow process switched context; its task-clock counter is the fixture's in both.
        #expect(wide.differing.map(\.name) == ["context-switches"], "\(wide.differing)")
        // Beside it, the other contender of its set and allocator with the fastest median process:
        // pthread-mutex (about 51 ns), not work-stealing under jemalloc (60) or libdispatch (200).
        let rival = try #require(wide.rival)
        #expect(rival.contender == "pthread-mutex" && rival.fastest >= 49.5 && rival.slowest <= 52.5, "\(rival)")
    }

    @Test("a case wide in every run is the runtime's; exactly 2× is not wide")
    func everyRun() throws {
        let spread = ProcessSpread([
            Self.slowSecondProcess(2.5, switches: 0.5), Self.slowSecondProcess(4, switches: 0.5),
        ])
        let wide = try #require(spread.inEveryRun.first)
        #expect(spread.inEveryRun.count == 1 && wide.caseID == Self.outside && wide.wideRuns == 2)
        // The widest run is the one shown.
        #expect(wide.slowest == 200)
        #expect(ProcessSpread([Self.slowSecondProcess(2, switches: 0)]).wide.isEmpty)
    }

    @Test(
        """
        a process whose CPUs were over 2× further apart than the run's usual is left out of the \
        steady spread; one at 2× is kept
        """)
    func farCPUs() throws {
        let far = ProcessSpread([
            Self.slowSecondProcess(3, switches: 0.5, slowHop: 200),
            Self.slowSecondProcess(3, switches: 0.5, slowHop: 200),
        ])
        let wide = try #require(far.inEveryRun.first)
        #expect(far.inEveryRun.count == 1 && far.steadyInEveryRun.isEmpty && far.steadyWidePerRun == [0, 0])
        #expect(far.farPerRun == [1, 1] && far.probedPerRun[0] > 2)
        // One process of the case remains: no steady ratio.
        #expect(wide.steadyRatios == [nil, nil] && wide.steadyWideRuns == 0)
        #expect(wide.fastestHop == 25 && wide.slowestHop == 200)
        let near = ProcessSpread([Self.slowSecondProcess(3, switches: 0.5, slowHop: 50)])
        #expect(near.farPerRun == [0] && near.steadyWidePerRun == [1] && near.wide.first?.steadyRatios == [3])
    }

    @Test(
        """
        a process whose CPUs were nearer than 0.6× the run's usual at one end (two hardware threads \
        of one core) is left out of the steady spread too; one at 0.6× is kept
        """)
    func nearCPUs() throws {
        // The second process runs 3× faster, its hop 25 ns before its samples and 12 after.
        let near = ProcessSpread([Self.slowSecondProcess(1.0 / 3, switches: 0.5, slowHop: 12)])
        let wide = try #require(near.wide.first)
        #expect(near.nearPerRun == [1] && near.farPerRun == [0] && near.steadyWidePerRun == [0])
        #expect(wide.ratios[0].map { abs($0 - 3) < 1e-9 } == true && wide.steadyRatios == [nil])
        let kept = ProcessSpread([Self.slowSecondProcess(1.0 / 3, switches: 0.5, slowHop: 15)])
        #expect(kept.nearPerRun == [0] && kept.steadyWidePerRun == [1])
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Gate
import Harness  // SeededGenerator
import Results
import Testing

/// The gate's error rates on simulated runs, seeded, so the figures are the same on every run and
/// the test cannot flake. The noise copies what tools/gate-calibration.sh met on the 2-core VM:
/// per-process values log-normal around the cell's time, with a pair log-ratio standard deviation
/// of 0.04, and one process in twelve spending its life in a slow phase of the host (×1.5), so
/// about one pair in seven has its halves in different phases. The measured figures, on real runs,
/// are in Sources/Gate/README.md.
@Suite struct SimulatedGateTests {
    static let cells = 8

    /// A paired run of `cells` cells × `pairs` pairs; B's values are `factor` times A's before noise
    /// (`factorOfCell` times in the cells it gives).
    static func pairedRuns(
        pairs: Int, factor: Double, factorOfCell: [Int: Double] = [:],
        generator: inout SeededGenerator
    ) -> (RunResults, RunResults) {
        pairedRuns(pairs: pairs, factor: factor, factorOfCell: factorOfCell, noise: true, generator: &generator)
    }

    /// Without noise: every process reads its cell's time (times `factor` in B).
    static func pairedRuns(pairs: Int, factor: Double, noise: Bool) -> (RunResults, RunResults) {
        var unused = SeededGenerator(seed: 0)
        return pairedRuns(pairs: pairs, factor: factor, factorOfCell: [:], noise: noise, generator: &unused)
    }

    private static func pairedRuns(
        pairs: Int, factor: Double, factorOfCell: [Int: Double], noise: Bool,
        generator: inout SeededGenerator
    ) -> (RunResults, RunResults) {
        func normal() -> Double {
            // Box–Muller from two uniforms in (0, 1].
            let u = Double.random(in: Double.ulpOfOne...1, using: &generator),
                v = Double.random(in: 0...1, using: &generator)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        func process(_ centre: Double) -> Double {
            guard noise else { return centre }
            let slowPhase = Double.random(in: 0..<1, using: &generator) < 0.08 ? 1.5 : 1.0
            return centre * exp(0.04 / 2.0.squareRoot() * normal()) * slowPhase
        }
        var a: [CaseResult] = [], b: [CaseResult] = []
        for cell in 0..<cells {
            let benchmarkCase = BenchmarkCase(
                workload: "spin", backend: BenchmarkCase.noBackend,
                parameters: [Parameter("rounds", "\(cell)")], allocator: .system)
            var resultA = CaseResult(benchmarkCase: benchmarkCase), resultB = CaseResult(benchmarkCase: benchmarkCase)
            let centre = 50.0 * Double(cell + 1)
            for pair in 0..<pairs {
                for (result, scale) in [(0, 1.0), (1, factorOfCell[cell] ?? factor)] {
                    let value = process(centre * scale)
                    let record = CaseRecord(
                        caseID: benchmarkCase.id, repetition: pair, batch: 1, nanosecondsPerOperation: [value],
                        metricsPerOperation: [:], unavailable: [:], cpus: [1])
                    if result == 0 { resultA.records.append(record) } else { resultB.records.append(record) }
                }
            }
            a.append(resultA)
            b.append(resultB)
        }
        let environment = try! JSONDecoder().decode(
            RunEnvironment.self,
            from: Data(
                """
                {"cpuModel": "Simulated", "onlineCPUs": 2, "kernel": "Linux", "virtualMachine": "yes", \
                "cpuGovernor": "-",
                 "perfEventParanoid": "2", "swiftCompiler": "Swift 6.3", "gitCommit": "-", "hostname": "-"}
                """.utf8))
        func run(_ cases: [CaseResult]) -> RunResults {
            RunResults(
                environment: environment, counterAvailability: [:], suite: .quick, repetitions: pairs,
                sampleTimeNanoseconds: 5_000_000, cases: cases)
        }
        return (run(a), run(b))
    }

    @Test("A/A: at most 1% of cells flagged over 300 simulated comparisons")
    func falseAlarms() throws {
        var generator = SeededGenerator(seed: 0xA_A)
        var alarms = 0, comparisonsWithAlarm = 0
        let comparisons = 300
        for _ in 0..<comparisons {
            let (a, b) = Self.pairedRuns(pairs: 6, factor: 1, generator: &generator)
            let flagged = try Comparison(base: a, new: b, pairing: .paired).regressions.count
            alarms += flagged
            if flagged > 0 { comparisonsWithAlarm += 1 }
        }
        let rate = Double(alarms) / Double(comparisons * Self.cells)
        #expect(rate <= 0.01, "false alarms: \(alarms) of \(comparisons * Self.cells) cells")
        #expect(
            Double(comparisonsWithAlarm) / Double(comparisons) <= 0.02,
            "comparisons with any alarm: \(comparisonsWithAlarm)")
    }

    @Test("a 10% slowdown: at least 95% of cells flagged with 40 pairs over 100 simulated comparisons")
    func detection() throws {
        var generator = SeededGenerator(seed: 0x51_0_3)
        var detected = 0
        let comparisons = 100
        for _ in 0..<comparisons {
            let (a, b) = Self.pairedRuns(pairs: 40, factor: 1.10, generator: &generator)
            detected += try Comparison(base: a, new: b, pairing: .paired).regressions.count
        }
        let rate = Double(detected) / Double(comparisons * Self.cells)
        #expect(rate >= 0.95, "detected \(detected) of \(comparisons * Self.cells)")
    }
}

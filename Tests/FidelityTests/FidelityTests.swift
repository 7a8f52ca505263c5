#if canImport(Glibc)
import Glibc
#endif
import Fidelity
import Results
import Testing

@Suite("fidelity: the bound, the pairs, and the rows a run's results give")
struct FidelityTests {
    @Test("the bound is 0.8–1.25× or 3 ns either side of the direct figure, whichever is looser")
    func bound() {
        let bound = FidelityBound.standard
        #expect(bound.limit(forDirect: 4) == 7)  // 3 ns above beats 5
        #expect(bound.limit(forDirect: 100) == 125)  // 1.25× beats 103
        #expect(bound.floor(forDirect: 4) == 1)  // 3 ns below beats 3.2
        #expect(bound.floor(forDirect: 100) == 80)  // 0.8× beats 97
        #expect(bound.allows(suite: 7, direct: 4) && !bound.allows(suite: 7.01, direct: 4))
        #expect(bound.allows(suite: 125, direct: 100) && !bound.allows(suite: 125.5, direct: 100))
        #expect(bound.allows(suite: 1, direct: 4) && !bound.allows(suite: 0.99, direct: 4))
        #expect(bound.allows(suite: 80, direct: 100) && !bound.allows(suite: 79.5, direct: 100))
        #expect(!bound.allows(suite: 50, direct: 100), "a reference twice the suite's figure validates nothing")
        #expect(bound.description == "within 0.8–1.25× of the direct figure or 3 ns from it, whichever is looser")
    }

    static func direct(_ backend: String, _ parameters: [(String, String)]) -> BenchmarkCase {
        BenchmarkCase(
            workload: "direct", backend: backend, parameters: parameters.map { Parameter($0.0, $0.1) },
            allocator: .system)
    }

    @Test("each direct operation pairs with its suite case, on the same backend and allocator")
    func pairs() throws {
        let sync = try #require(FidelityPairs.pair(for: Self.direct("libdispatch-c", [("operation", "sync")])))
        #expect(
            sync.suiteCase.id == "queue-vs-lock/libdispatch-c/"
                + "guard=queue-sync,threads=1,resource=counter,critical=0ns,outside=0ns/system")
        #expect(sync.layer == .c && sync.unitsPerOperation == 1)
        let swift = try #require(FidelityPairs.pair(for: Self.direct("libdispatch", [("operation", "chain")])))
        #expect(swift.suiteCase.id == "spawn/libdispatch/pattern=chain/system" && swift.layer == .swift)
        let ours = try #require(FidelityPairs.pair(for: Self.direct("fifo-dispatch", [("operation", "semaphore")])))
        #expect(
            ours.suiteCase.id == "semaphore/fifo-dispatch/pattern=uncontended,semaphore=backend/system"
                && ours.layer == .concrete)
        let apply = try #require(
            FidelityPairs.pair(
                for: Self.direct(
                    "libdispatch-c",
                    [("operation", "apply"), ("body", "0ns"), ("stride", "1"), ("iterations", "100000")])))
        #expect(apply.suiteCase.id == "apply-stride/libdispatch-c/body=0ns,stride=1,iterations=100000/system")
        #expect(apply.unitsPerOperation == 100_000 && apply.unit == "iteration")
        #expect(FidelityPairs.pair(for: Self.direct("libdispatch-c", [("operation", "teleport")])) == nil)
        #expect(
            FidelityPairs.pair(
                for: BenchmarkCase(workload: "spin", backend: "none", parameters: [], allocator: .system)) == nil)
    }

    static func result(_ benchmarkCase: BenchmarkCase, processes: [[Double]]) -> CaseResult {
        var result = CaseResult(benchmarkCase: benchmarkCase)
        result.records = processes.enumerated().map { repetition, samples in
            CaseRecord(
                caseID: benchmarkCase.id, repetition: repetition, batch: 1, nanosecondsPerOperation: samples,
                metricsPerOperation: [:], unavailable: [:], workloadMetrics: nil, cpus: [0])
        }
        return result
    }

    static func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) <= 1e-9 * b } ?? false }

    @Test("a row's figures are the median over processes of each process's median, per unit")
    func rowFigures() throws {
        let directCase = Self.direct(
            "libdispatch-c", [("operation", "apply"), ("body", "0ns"), ("stride", "1"), ("iterations", "1000")])
        let pair = try #require(FidelityPairs.pair(for: directCase))
        // Process medians 29,000 / 30,000 / 31,000 ns per loop; one wild sample does not move a median.
        let suite = Self.result(
            pair.suiteCase,
            processes: [[28_000, 29_000, 30_000], [30_000, 30_000, 1_000_000], [31_000, 31_000, 31_000]])
        let direct = Self.result(directCase, processes: [[10_000], [12_000], [11_000]])
        let rows = FidelityRow.rows(in: [suite, direct])
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(Self.close(row.suiteNanoseconds, 30))
        #expect(Self.close(row.directNanoseconds, 11))
        #expect(row.ratio! > 2.7 && row.ratio! < 2.8 && !row.withinBound && row.missing == nil)
        #expect(row.standing == .over, "every suite process is far above the bound of the direct ones: \(row)")
    }

    @Test("a figure over the bound whose processes disagree is unclear, not over; one within is within")
    func unclearWhenProcessesDisagree() throws {
        let directCase = Self.direct("fifo-dispatch", [("operation", "chain")])
        let pair = try #require(FidelityPairs.pair(for: directCase))
        let direct = Self.result(directCase, processes: [[100], [100], [100]])
        // A fast and a slow mode per process: figure 300 against a limit of 125, but one process at 110.
        let split = Self.result(pair.suiteCase, processes: [[110], [300], [900]])
        let unclear = try #require(FidelityRow.rows(in: [split, direct]).first)
        #expect(unclear.standing == .unclear && !unclear.withinBound, "\(unclear)")
        let close = Self.result(pair.suiteCase, processes: [[120], [124], [126]])
        #expect(try #require(FidelityRow.rows(in: [close, direct]).first).standing == .within)
        // Below the floor (80) with one process at 90: unclear too.
        let splitLow = Self.result(pair.suiteCase, processes: [[20], [40], [90]])
        #expect(try #require(FidelityRow.rows(in: [splitLow, direct]).first).standing == .unclear)
    }

    @Test("a suite figure clearly below its reference's floor is under the bound, and says the reference pays more")
    func underWhenTheReferencePaysMore() throws {
        let directCase = Self.direct("work-stealing", [("operation", "chain")])
        let pair = try #require(FidelityPairs.pair(for: directCase))
        // The suite 15.7 ns a link against a reference of 70: every suite process far below 56.
        let direct = Self.result(directCase, processes: [[69], [70], [72]])
        let suite = Self.result(pair.suiteCase, processes: [[15.5], [15.7], [16]])
        let row = try #require(FidelityRow.rows(in: [suite, direct]).first)
        #expect(row.standing == .under && !row.withinBound, "\(row)")
        #expect(Self.close(row.floor, 70 * 0.8))
    }

    @Test("a pair with a missing or failed half has no verdict and is not within the bound")
    func missingHalves() throws {
        let directCase = Self.direct("libdispatch-c", [("operation", "sync")])
        let pair = try #require(FidelityPairs.pair(for: directCase))
        var failed = CaseResult(benchmarkCase: pair.suiteCase)
        failed.failures = ["killed by SIGSEGV (11)"]
        let rows = FidelityRow.rows(in: [failed, Self.result(directCase, processes: [[10]])])
        let row = try #require(rows.first)
        #expect(
            row.suiteNanoseconds == nil && Self.close(row.directNanoseconds, 10) && row.ratio == nil && !row.withinBound
        )
        #expect(row.missing == "suite case failed: killed by SIGSEGV (11)")
        let alone = try #require(FidelityRow.rows(in: [Self.result(directCase, processes: [[10]])]).first)
        #expect(alone.missing == "suite case was not run")
    }
}

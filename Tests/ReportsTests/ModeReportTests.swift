import Reports
import Results
import Testing

/// A case whose processes fall into modes: the family table lists each mode with its share and
/// the counters that differ, and "× best" says when the order depends on the mode.
@Suite("report.md: processes in modes")
struct ModeReportTests {
    /// A case with one process per entry of `processes`: (ns per operation, context switches per operation),
    /// each with the CPU hop of the same entry of `hops`, if given.
    static func measured(
        _ guarding: String, _ backend: String, _ processes: [(Double, Double)], hops: [Double]? = nil
    ) -> CaseResult {
        let benchmarkCase = BenchmarkCase(
            workload: "queue-vs-lock", backend: backend,
            parameters: [
                Parameter("guard", guarding), Parameter("threads", "2"), Parameter("resource", "counter"),
                Parameter("critical", "0ns"), Parameter("outside", "0ns"),
            ], allocator: .system)
        var result = CaseResult(benchmarkCase: benchmarkCase)
        result.records = processes.enumerated().map { repetition, process in
            CaseRecord(
                caseID: benchmarkCase.id, repetition: repetition, batch: 10,
                nanosecondsPerOperation: Array(repeating: process.0, count: 5),
                metricsPerOperation: ["context-switches": process.1, "task-clock": process.0 * 0.9],
                unavailable: [:], workloadMetrics: nil, cpus: [0, 1],
                cpuHop: hops.map { CPUHop(cpus: [0, 1], beforeNanoseconds: $0[repetition], afterNanoseconds: 20) })
        }
        return result
    }

    static func report(_ cases: [CaseResult]) throws -> String {
        let run = RunResults(
            environment: Fixture.environment, counterAvailability: [:], suite: .quick, repetitions: 4,
            sampleTimeNanoseconds: 5_000_000, cases: cases)
        return try #require(try ResultsWriter.outputs(of: run).first { $0.path == "report.md" }?.contents)
    }

    @Test("each mode's figure, share and differing counters under the table; the order depends on the mode")
    func modes() throws {
        let text = try Self.report([
            // Fast when both threads share a CPU, slow with a context switch per section when not.
            Self.measured("queue-sync", "fifo-dispatch", [(11, 0.001), (12, 0.001), (12.5, 0.001), (2_500, 2)]),
            Self.measured("swift-mutex", "none", [(30, 0.001), (30.5, 0.001), (31, 0.001), (31.5, 0.001)]),
            // Two more steady cases: the run's typical spread, which a one-process mode borrows.
            Self.measured("pthread-mutex", "none", [(40, 0.001), (40.5, 0.001), (41, 0.001), (41.5, 0.001)]),
            Self.measured("actor", "none", [(60, 0.001), (61, 0.001), (62, 0.001), (63, 0.001)]),
        ])
        #expect(
            text.contains(
                "- fifo-dispatch · queue-sync (system): 12 ns in 3 of 4 processes (share 30%–95%), "
                    + "2.5 µs in 1 of 4 processes (share 5%–70%); the modes differ in context-switches "
                    + "(0.001, 2 per operation), task-clock (10.8, 2250 per operation)."),
            "\(text)")
        // The split case ranks first by its median, but swift-mutex is faster than its slow mode.
        #expect(text.contains("| fifo-dispatch · queue-sync | 12.2 |"), "\(text)")
        #expect(text.contains("×, depends on the mode |"), "\(text)")
    }

    @Test("a mode whose processes ran with the CPUs 2× further apart is called the machine's; 1.5× is not")
    func machineMode() throws {
        let steady = [
            Self.measured("swift-mutex", "none", [(30, 0.001), (30.5, 0.001), (31, 0.001), (31.5, 0.001)]),
            Self.measured("pthread-mutex", "none", [(40, 0.001), (40.5, 0.001), (41, 0.001), (41.5, 0.001)]),
        ]
        let processes = [(11.0, 0.001), (12, 0.001), (12.5, 0.001), (40, 0.001)]
        let far = try Self.report(
            [Self.measured("queue-sync", "fifo-dispatch", processes, hops: [25, 30, 28, 210])] + steady)
        #expect(
            far.contains(
                "task-clock (10.8, 36 per operation); a cache line took 28, 210 ns from one CPU to another in them "
                    + "(the machine moved its CPUs apart: a mode of the machine, not of the runtime)."),
            "\(far)")
        let near = try Self.report(
            [Self.measured("queue-sync", "fifo-dispatch", processes, hops: [25, 30, 28, 42])] + steady)
        #expect(near.contains("task-clock (10.8, 36 per operation).") && !near.contains("in them (the machine moved"))
    }

    /// `record` with samples that switch between about 11 and 300 ns as the process runs.
    static func switching(_ record: CaseRecord) -> CaseRecord {
        CaseRecord(
            caseID: record.caseID, repetition: record.repetition, batch: record.batch,
            nanosecondsPerOperation: [11, 11, 11, 300, 300], metricsPerOperation: record.metricsPerOperation,
            unavailable: [:], workloadMetrics: nil, cpus: record.cpus)
    }

    @Test("a case whose processes changed mode as they ran says so, with or without modes between processes")
    func switching() throws {
        var mixed = Self.measured(
            "queue-sync", "fifo-dispatch", [(11, 0.001), (12, 0.001), (12.5, 0.001), (13, 0.001)])
        for index in 0..<2 { mixed.records[index] = Self.switching(mixed.records[index]) }
        let steady = Self.measured("swift-mutex", "none", [(30, 0.001), (30.5, 0.001), (31, 0.001), (31.5, 0.001)])
        let text = try Self.report([mixed, steady])
        // The two switched processes' figures are their samples' mean (127 ns), so they are a mode
        // between processes too, beside the two steady ones.
        #expect(
            text.contains(
                "- fifo-dispatch · queue-sync (system): 12.7 ns in 2 of 4 processes (share 15%–85%), 127 ns in 2 of 4")
                && text.contains(
                    "in 2 of 4 processes the samples switched between about "
                        + "11 ns and 300 ns (each such process changed mode as it ran: its figure mixes the modes by "
                        + "its time in each)"),
            "\(text)")
        #expect(text.contains("Processes in modes"))
        #expect(!text.contains("swift-mutex (system): in"))
        // Every process switched alike: their figures agree, no modes between processes, and the
        // line says only that they switched.
        for index in 2..<4 { mixed.records[index] = Self.switching(mixed.records[index]) }
        let alike = try Self.report([mixed, steady])
        #expect(
            alike.contains(
                "- fifo-dispatch · queue-sync (system): in 4 of 4 processes the samples switched between about "
                    + "11 ns and 300 ns (each such process changed mode as it ran"),
            "\(alike)")
    }

    @Test("a case whose processes form one group gets no mode list")
    func noModes() throws {
        let text = try Self.report([
            Self.measured("queue-sync", "fifo-dispatch", [(11, 0.001), (12, 0.001), (13, 0.001), (14, 0.001)]),
            Self.measured("swift-mutex", "none", [(30, 0.001), (30.5, 0.001), (31, 0.001), (31.5, 0.001)]),
        ])
        #expect(!text.contains("Processes in modes"))
    }
}

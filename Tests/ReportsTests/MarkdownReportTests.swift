import FoundationEssentials
import Results
import Reports
import Testing

/// report.md from the hand-made run: exact table rows, the answer, the failures, the striding figures.
@Suite("report.md from a hand-made run")
struct MarkdownReportTests {
    static var outputs: [String: String] { Fixture.outputs }

    static var report: String { outputs["report.md"]! }
    static var lines: [String] { report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The table under the heading `heading`: its lines up to the next blank line.
    static func table(after heading: String) throws -> [String] {
        let start = try #require(lines.firstIndex(of: heading), "no heading \(heading)")
        return Array(lines[(start + 2)...].prefix { !$0.isEmpty })
    }

    @Test(
        """
        a parameter set's table: best first, where a repeat run falls, the ratio or a tie written as a tie, \
        counters or 'unavailable', never a 0 for a gap
        """)
    func familyTable() throws {
        // Two processes each; constant samples: the interval is the run's drift alone (±14.6%, 4%
        // with t at 5 degrees of freedom); 49.5 and 52.5: a wider one; a tie, since those two
        // processes spread wider than 50 and 51 differ.
        #expect(
            try Self.table(after: "#### spawn: pattern=outside") == [
                "| contender | allocator | ns/op | a repeat run | × best | processes × samples | CPU ns/op "
                    + "| syscalls/op |",
                "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
                "| work-stealing | system | 50 | 43.2–57.8 | — | 2 × 10 | 48 | 0 |",
                "| pthread-mutex | system | 51 | 43.6–59.7 | 1.02×, a tie | 2 × 10 | unavailable | unavailable |",
                "| work-stealing | jemalloc | 60 | 51.9–69.4 | 1.20× | 2 × 10 | 58 | 0 |",
                "| libdispatch | system | 200 | 173–231 | 4.00× | 2 × 10 | 210 | 0.5 |",
            ])
        // At most 8 columns: the counter that differs least between the contenders is named below.
        #expect(
            Self.report.contains(
                "Also measured, closer between the contenders: bytes allocated/op (`bench report --all-columns` "
                    + "shows them here; results.csv has every one)."))
    }

    @Test("contender parameters join the backend: a lock that needs no backend sits beside a backend's serial queue")
    func contenders() throws {
        let rows = try Self.table(
            after: "#### queue-vs-lock: threads=2xcpus, resource=counter, critical=0ns, outside=0ns")
        #expect(rows.count == 4)
        #expect(rows[2].hasPrefix("| pthread-mutex | system | 45 | 38.9–52 | — |"), "\(rows)")
        #expect(rows[3].hasPrefix("| libdispatch · queue-sync | system | 60 | 51.9–69.4 | 1.33× |"), "\(rows)")
    }

    @Test("footprint ranks by memory per unit, not by time: the slower queued block is the clear answer")
    func footprintRanksByMemory() throws {
        let report = Self.report
        #expect(
            report.contains(
                "- **footprint** (1 parameter set): libdispatch · queued-block is clearly smallest in 1 (units=256), "
                    + "by 107× over the runner-up; ranked by resident bytes/unit, not time."),
            "\(report.prefix(3000))")
        let rows = try Self.table(after: "#### footprint: units=256")
        #expect(
            rows[0].hasPrefix("| contender | allocator | resident bytes/unit | a repeat run | × best | ns/op |"),
            "\(rows)")
        #expect(rows[2].hasPrefix("| libdispatch · queued-block | system | 150 | 150–150 | — | 40000 |"), "\(rows)")
        #expect(rows[3].hasPrefix("| thread | system | 16000 | 16000–16000 | 107× | 10000 |"), "\(rows)")
    }

    @Test(
        """
        the opening line counts the cases measured apart from those not applicable, and the \
        processes an answer added beyond the run's own
        """)
    func caseCounts() throws {
        var run = Fixture.run
        let total = run.cases.count
        let notApplicable = run.cases.count { $0.notApplicable != nil }
        let failed = run.cases.count { $0.records.isEmpty && $0.notApplicable == nil }
        try #require(notApplicable == 1 && failed == 1 && run.repetitions == 2)
        func opening(_ run: RunResults) throws -> String {
            let report = try #require(try ResultsWriter.outputs(of: run).first { $0.path == "report.md" }?.contents)
            return String(report.prefix(600))
        }
        let counts =
            "\(total) cases, \(total - 2) measured (1 not applicable to their backend, 1 failed), 2 processes per case"
        let plain = try opening(run)
        #expect(plain.contains("(\(counts), samples of at least"), "\(plain)")
        // One case's answer asked for three more processes.
        let index = try #require(run.cases.firstIndex { !$0.records.isEmpty })
        let record = run.cases[index].records[0]
        run.cases[index].records += (2..<5).map { repetition in
            CaseRecord(
                caseID: record.caseID, repetition: repetition, batch: record.batch,
                nanosecondsPerOperation: record.nanosecondsPerOperation,
                metricsPerOperation: record.metricsPerOperation, unavailable: record.unavailable,
                workloadMetrics: record.workloadMetrics, cpus: record.cpus)
        }
        let extended = try opening(run)
        #expect(extended.contains("(\(counts), up to 5 for the 1 whose answers needed more, samples of"), "\(extended)")
    }

    @Test("the first screen says what each backend of the run is, after the questions; an older file says nothing")
    func runtimesNamed() throws {
        func report(_ run: RunResults) throws -> String {
            try #require(try ResultsWriter.outputs(of: run).first { $0.path == "report.md" }?.contents)
        }
        #expect(try !report(Fixture.run).contains("The runtimes named above"))
        var run = Fixture.run
        run.backends = ["libdispatch": "libdispatch through the Swift Dispatch API", "work-stealing": "a pool"]
        let text = try report(run)
        let legend = try #require(text.range(of: "**The runtimes named above** (`bench list` describes each):\n"))
        #expect(text[legend.upperBound...].hasPrefix("- **"), "\(text[legend.upperBound...].prefix(200))")
        #expect(text.contains("- **libdispatch**: libdispatch through the Swift Dispatch API\n"))
        #expect(text.contains("- **work-stealing**: a pool\n"))
        #expect(legend.lowerBound > (try #require(text.range(of: "## Questions"))).lowerBound)
        #expect(legend.lowerBound < (try #require(text.range(of: "**Noise:"))).lowerBound)
        // Kept in results.json.
        let decoded = try JSONDecoder().decode(RunResults.self, from: try JSONEncoder().encode(run))
        #expect(decoded.backends == run.backends)
    }

    @Test("the first screen says how noisy the run was and what to do about a tie, before the answers")
    func noiseOnFirstScreen() throws {
        let report = Self.report
        let noise = try #require(
            report.range(
                of: "**Noise: quiet.** While this run measured, a typical case's processes differed by 0%; "
                    + "0 of 21 cases had processes more than 10% apart."),
            "\(report.prefix(2000))")
        #expect(noise.lowerBound < (try #require(report.range(of: "## What should I use?"))).lowerBound)
        // Twice the run's 2 processes, never fewer than 3.
        #expect(report.contains("To settle a tie: more processes per case (`--repetitions 4`;"))
        var noisy = Fixture.run
        noisy.cases = noisy.cases.map { result in
            var result = result
            result.records = result.records.map { record in
                CaseRecord(
                    caseID: record.caseID, repetition: record.repetition, batch: record.batch,
                    nanosecondsPerOperation: record.nanosecondsPerOperation.map {
                        $0 * (record.repetition == 0 ? 1 : 1.5)
                    },
                    metricsPerOperation: record.metricsPerOperation, unavailable: record.unavailable,
                    workloadMetrics: record.workloadMetrics,
                    cpus: record.cpus,
                    cpuHop: CPUHop(
                        cpus: [0, 1], beforeNanoseconds: 25,
                        afterNanoseconds: result.benchmarkCase.workload == "spawn" && record.repetition == 1 ? 210 : 25)
                )
            }
            return result
        }
        let farProcesses = noisy.cases.filter { $0.benchmarkCase.workload == "spawn" }.flatMap(\.records)
            .filter { $0.repetition == 1 }.count
        let processes = noisy.cases.flatMap(\.records).count
        noisy.load = MachineLoad(stealPercent: 0.006, otherProcessesPercent: 30, seconds: 100)
        let text = try #require(try ResultsWriter.outputs(of: noisy).first { $0.path == "report.md" }).contents
        let hopFact =
            "a cache line took 25 ns from one CPU to another in a typical process and over 2× that in "
            + "\(farProcesses) of \(processes) processes "
            + "(the CPUs were moved apart under them: hand-offs cost more there)"
        let expected: String =
            "**Noise: noisy.** While this run measured, a typical case's processes differed by 28.7%; "
            + "21 of 21 cases had processes more than 10% apart; the hypervisor took under 0.1% of the CPU "
            + "time (steal); other processes used 30% of it; " + hopFact + ". Noisy because a typical case's "
            + "processes were more than 5% apart."
        #expect(text.contains(expected), "\(text.prefix(2000))")
        #expect(farProcesses > 0 && farProcesses < processes / 2)
        #expect(
            report.contains("apart. Quiet because a typical case's processes agreed within 1.5%"),
            "the verdict says what decided it")
    }

    @Test(
        "the first screen answers from the data: a clear win with its margin, a tie called a tie, the claims' verdicts")
    func firstScreen() throws {
        let report = Self.report
        #expect(
            report.contains(
                "- **spawn** (2 parameter sets): work-stealing is clearly fastest in 1 (pattern=chain), "
                    + "by 3.00× over the runner-up; "
                    + "a tie in 1 (work-stealing and pthread-mutex lead together)."),
            "\(report.prefix(3000))")
        #expect(
            report.contains(
                "- **queue-vs-lock** (2 parameter sets): pthread-mutex is clearly fastest in 2 "
                    + "(threads=1, resource=counter, critical=0ns, outside=0ns and "
                    + "threads=2xcpus, resource=counter, critical=0ns, outside=0ns), "
                    + "by 1.33× over the runner-up."))
        #expect(
            report.contains(
                "- **allocator**: under jemalloc instead of the system allocator, 0 of 1 cases are clearly faster, "
                    + "1 clearly slower, and 0 not told apart."))
        // The suite's own runtimes are said to be its own before the answers rank them, and only
        // those the run measured (the fixture has no fifo-dispatch).
        let own = try #require(report.range(of: " this suite's own runtimes, measured beside what Swift"))
        #expect(
            report[..<own.lowerBound].hasSuffix("\n**pthread-mutex** and **work-stealing** are"),
            "\(report.prefix(1500))")
        #expect(own.lowerBound < (report.range(of: "- **")?.lowerBound ?? report.startIndex))
        #expect(report.contains("The guide is the “Dispatch Queues” chapter of Apple's Concurrency Programming Guide"))
        let answer = try #require(report.range(of: "## What should I use?")),
            claims = try #require(report.range(of: "## Claims of the dispatch guide"))
        #expect(answer.lowerBound < claims.lowerBound)
        #expect(
            report.contains("| **inconclusive** | Swift code (the Dispatch overlay) | `queues-beat-locks-contended`"))
        // The fixture has libdispatch but not libdispatch-c, nor Swift's Mutex: the Swift-code verdict
        // of the uncontended claim needs the Mutex, and the runtime's needs the C references.
        #expect(
            report.contains("| **inconclusive** | Swift code (the Dispatch overlay) | `queues-beat-locks-uncontended`"))
        #expect(
            report.contains(
                "| **inconclusive** | the runtime itself (libdispatch's C entry points) "
                    + "| `queues-beat-locks-uncontended-runtime`"))
    }

    @Test(
        """
        the machine section names every counter's state; a counter no case measured is left out of the \
        tables with its reason
        """)
    func counters() {
        let report = Self.report
        #expect(report.contains("| `cycles` | unavailable: no PMU |"))
        #expect(report.contains("| `syscalls` | available |"))
        #expect(report.contains("`cycles` (unavailable: no PMU), `instructions` (not recorded by this run)"))
        #expect(report.contains("| online CPUs | 2 |"))
    }

    @Test(
        """
        best stride per body cost: its ns per iteration, the gain over stride 1, the automatic stride, \
        the stride it chose and its ratio to the best, the serial loop
        """)
    func striding() throws {
        let header = try #require(Self.lines.first { $0.hasPrefix("| setting | backend | best stride |") })
        #expect(
            Array(Self.lines.drop { $0 != header }.dropFirst(2).prefix { !$0.isEmpty }) == [
                "| body=0ns, iterations=1000 | libdispatch | 4 | 20 | 100 | 5.00× faster | 15 | unavailable "
                    + "| 0.75×, clearly faster | 5 | 4.00× slower |",
                "| body=0ns, iterations=1000 | work-stealing | 4 | 10 | 50 | 5.00× faster | 12 | 63 "
                    + "| 1.20×, clearly slower | 5 | 2.00× slower |",
            ])
        #expect(
            Self.report.contains(
                "![apply-stride, body=0ns, iterations=1000: "
                    + "ns per iteration by stride](charts/stride-body-0ns-iterations-1000.svg)"))
    }

    @Test(
        """
        without a sweep of strides (the quick and smoke suites) the section sets stride 1 beside the automatic stride, \
        names no best stride and draws no curve
        """)
    func stridingWithoutASweep() throws {
        func outputs(strides: [String]) throws -> [String: String] {
            var cases = strides.map { stride in
                Fixture.measured(
                    "apply-stride", "work-stealing", [("body", "0ns"), ("stride", stride), ("iterations", "1000")],
                    samples: Fixture.constant(stride == "1" ? 50_000 : 12_000),
                    figures: stride == "auto" ? ["iterations_per_piece": WorkloadMetric(62.5, unit: .iterations)] : nil)
            }
            cases.append(
                Fixture.measured(
                    "apply-serial", BenchmarkCase.noBackend, [("body", "0ns"), ("iterations", "1000")],
                    samples: Fixture.constant(5_000)))
            let run = RunResults(
                environment: Fixture.environment, counterAvailability: [:], suite: .quick, repetitions: 2,
                sampleTimeNanoseconds: 5_000_000, cases: cases)
            return Dictionary(uniqueKeysWithValues: try ResultsWriter.outputs(of: run).map { ($0.path, $0.contents) })
        }
        let quick = try outputs(strides: ["1", "auto"])
        let report = try #require(quick["report.md"])
        #expect(report.contains("## Apply: stride 1 against the automatic stride"))
        #expect(!report.contains("best stride"), "no best stride out of one fixed stride")
        #expect(
            report.contains(
                "| body=0ns, iterations=1000 | work-stealing | 50 | 12 | 63 | 4.17× faster | 5 | 2.40× slower |"),
            "\(report)")
        #expect(!quick.keys.contains { $0.hasPrefix("charts/stride-") }, "a curve of one point is not drawn")

        let smoke = try outputs(strides: ["auto"])
        let rows = try #require(smoke["report.md"]).split(separator: "\n").filter { $0.hasPrefix("| body=0ns") }
        #expect(
            rows == ["| body=0ns, iterations=1000 | work-stealing | not run | 12 | 63 | — | 5 | 2.40× slower |"],
            "\(rows)")
        #expect(
            try #require(smoke["report.md"]).contains(
                "## Apply: the automatic stride\n\nns per iteration (median ns per apply ÷ iterations), "
                    + "system allocator. This suite runs only the stride"))
    }

    @Test(
        """
        the per-worker stride is placed where the loop really cut it (its own iterations per piece), \
        not at a guessed worker count
        """)
    func perWorkerStride() throws {
        let cases = [("1", 50_000.0), ("4", 20_000), ("per-worker", 8_000)].map { stride, nanoseconds in
            Fixture.measured(
                "apply-stride", "work-stealing", [("body", "0ns"), ("stride", stride), ("iterations", "1000")],
                samples: Fixture.constant(nanoseconds),
                figures: [
                    "iterations_per_piece": WorkloadMetric(
                        stride == "per-worker" ? 333.3 : Double(stride)!, unit: .iterations)
                ])
        }
        let run = RunResults(
            environment: Fixture.environment, counterAvailability: [:], suite: .full, repetitions: 2,
            sampleTimeNanoseconds: 5_000_000, cases: cases)
        let report = try #require(try ResultsWriter.outputs(of: run).first { $0.path == "report.md" }).contents
        #expect(
            report.contains("| body=0ns, iterations=1000 | work-stealing | per-worker (333) | 8 | 50 | 6.25× faster |"),
            "\(report)")
    }

    @Test(
        """
        the automatic stride against the best is a tie where the processes' intervals overlap, \
        however far apart the two medians
        """)
    func automaticStrideTie() throws {
        // Five processes each; the automatic stride's median is 12% above the best's, but two of its
        // processes read like the best's, and one of the best's reads like the automatic stride's.
        // Stride 16 makes it a sweep (a best stride is named only among two fixed strides or more).
        let processes: [String: [Double]] = [
            "4": [10_000, 10_400, 9_800, 13_000, 10_100], "auto": [11_300, 10_000, 13_400, 12_800, 10_100],
            "16": [14_000, 14_100, 13_900, 14_200, 14_000],
        ]
        let cases = processes.map { stride, values in
            var result = Fixture.measured(
                "apply-stride", "work-stealing", [("body", "0ns"), ("stride", stride), ("iterations", "1000")],
                samples: [])
            result.records = values.enumerated().map { repetition, value in
                CaseRecord(
                    caseID: result.benchmarkCase.id, repetition: repetition, batch: 10,
                    nanosecondsPerOperation: Array(repeating: value, count: 5),
                    metricsPerOperation: [:], unavailable: [:], workloadMetrics: nil, cpus: [0, 1])
            }
            return result
        }
        let run = RunResults(
            environment: Fixture.environment, counterAvailability: [:], suite: .full, repetitions: 5,
            sampleTimeNanoseconds: 5_000_000, cases: cases)
        let report = try #require(try ResultsWriter.outputs(of: run).first { $0.path == "report.md" }).contents
        #expect(report.contains("| 11.3 | unavailable | 1.12×, a tie |"), "\(report)")
    }

    @Test("a table with a latency percentile says what it measures beside ns/op, once, under the table")
    func figureNotes() throws {
        let note = "`handoff_ns.p50`/`.p99` is one hand-off's latency"
        #expect(
            Self.report.components(separatedBy: note).count - 1 == Self.report.components(
                separatedBy: "| handoff_ns.p50 (ns) |"
            ).count - 1,
            "one note per table with the figure")
        #expect(Self.report.contains("their hand-offs overlap, so ns/op is a throughput figure"))
        #expect(
            Self.report.contains("A figure is the median over the case's processes of each process's median sample"))
    }

    @Test("failed and not applicable cases are listed with their reasons, and stay out of the tables")
    func failures() throws {
        let report = Self.report
        #expect(
            report.contains(
                "| `spawn/swift-concurrency/pattern=outside/system` | failed: crashed: signal 11 (SIGSEGV) "
                    + "| crashed: signal 11 (SIGSEGV) |"))
        #expect(
            report.contains(
                "| `fork-join/pthread-mutex/fib=30,form=task/system` "
                    + "| join is offered by the work-stealing backend only |"))
        #expect(!(try Self.table(after: "#### spawn: pattern=outside")).contains { $0.contains("swift-concurrency") })
    }

    @Test("every chart the report links is among the outputs")
    func links() {
        let linked = Self.lines.compactMap { line -> String? in
            guard line.hasPrefix("!["), let open = line.lastIndex(of: "(") else { return nil }
            return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
        }
        #expect(linked.count == 5, "\(linked)")  // stride, scaling, hand-off, two first-screen answers
        for path in linked { #expect(Self.outputs[path] != nil, "\(path) is linked but not written") }
    }

    @Test(
        """
        an interrupted run outside git: the banner, the planned processes said to be planned, \
        and the commit said to be unknown
        """)
    func interruptedOutsideGit() throws {
        var run = Fixture.run
        run.interrupted = "SIGINT after 3 of 40 repetitions"
        let json = String(decoding: try JSONEncoder().encode(run.environment), as: UTF8.self)
            .replacing("0123456789abcdef0123456789abcdef01234567", with: "unavailable: not run from a git checkout")
        run.environment = try JSONDecoder().decode(RunEnvironment.self, from: Data(json.utf8))
        let report = try #require(try ResultsWriter.outputs(of: run).first { $0.path == "report.md" }?.contents)
        #expect(
            report.contains("**This run was interrupted** (SIGINT after 3 of 40 repetitions)"), "\(report.prefix(600))")
        #expect(
            report.contains("2 processes per case planned, fewer where the interruption cut a case short"),
            "\(report.prefix(600))")
        #expect(report.contains("at an unknown commit (not run from a git checkout)."), "\(report.prefix(600))")
        #expect(report.contains("| processes per case | 2 planned (interrupted) |"))
        #expect(!report.contains("at unavailable"))
    }
}

extension MarkdownReportTests {
    @Test("a loop's table reads per iteration, as the stride section does, and says its counters are per loop")
    func perIteration() throws {
        let rows = try Self.table(after: "#### apply-stride: body=0ns, stride=4, iterations=1000")
        #expect(rows.first?.hasPrefix("| contender | allocator | ns/iteration | a repeat run |") == true, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("| work-stealing | system | 10 |") }, "\(rows)")
        #expect(Self.report.contains("Times per iteration; counters per operation, that is per loop"))
    }

    @Test("--all-columns: every counter a column, none named below the table")
    func allColumns() throws {
        let outputs = try ResultsWriter.outputs(of: RunAnalysis(Fixture.run), allColumns: true)
        let report = try #require(outputs.first { $0.path == "report.md" }?.contents)
        #expect(
            report.contains(
                "| contender | allocator | ns/op | a repeat run | × best | processes × samples | CPU ns/op "
                    + "| syscalls/op | bytes allocated/op |"), "\(report)")
        #expect(!report.contains("Also measured, closer between the contenders"))
    }
}

import CaseCatalogue
import Results
import Testing
import Workloads

@testable import Reports

/// report.md's questions: a clear answer names the fastest and by how much; contenders closer
/// than their processes' spread are "cannot be told apart" with both numbers; a per-iteration
/// contender is divided by its loop; a question the run did not measure says which command does.
@Suite("report.md's questions, answered from the run")
struct QuestionsTests {
    func report(_ cases: [CaseResult]) throws -> String {
        let run = RunResults(
            environment: Fixture.environment, counterAvailability: [:], suite: .quick, repetitions: 2,
            sampleTimeNanoseconds: 5_000_000, cases: cases)
        return try #require(try ResultsWriter.outputs(of: run).first { $0.path == "report.md" }?.contents)
    }

    static func guarded(_ guarding: String, _ backend: String, threads: String, samples: [Double]) -> CaseResult {
        Fixture.measured(
            "queue-vs-lock", backend,
            [
                ("guard", guarding), ("threads", threads), ("resource", "counter"), ("critical", "0ns"),
                ("outside", "0ns"),
            ], samples: samples)
    }

    @Test("a clear winner, a tie with the numbers on each side, a missing contender, an unmeasured question")
    func answers() throws {
        let text = try report([
            Self.guarded("swift-mutex", "none", threads: "1", samples: Fixture.constant(5)),
            Self.guarded("actor", "none", threads: "1", samples: Fixture.constant(50)),
            Self.guarded("queue-sync", "libdispatch", threads: "1", samples: Fixture.constant(70)),
            // 2 threads: Mutex and the actor overlap (one process at 40, the other at 60).
            Self.guarded("swift-mutex", "none", threads: "2", samples: Fixture.constant(45)),
            Self.guarded(
                "actor", "none", threads: "2",
                samples: Array(repeating: 40, count: 10) + Array(repeating: 60, count: 10)),
        ])
        #expect(text.contains("## Questions"))
        #expect(
            text.contains(
                "  - 1 thread, empty sections: **Mutex** is clearly fastest at 5 ns, 10.0× ahead of actor (50 ns); "
                    + "then DispatchQueue.sync (70 ns, 14.0×)."), "\(text)")
        #expect(
            text.contains(
                "  - 2 threads, empty sections: **Mutex** (45 ns) and **actor** (49 ns, 1.09×) lead together, "
                    + "none clearly more than 5% behind the fastest (not measured: DispatchQueue.sync)."),
            "\(text)")
        // A case whose two processes (one a mode each) reach either side of the best is not told
        // apart from it: it leads together with it, its ratio and modes shown; the rest are slower.
        let modes = try report([
            Self.guarded("swift-mutex", "none", threads: "1", samples: Fixture.constant(5)),
            Self.guarded("queue-sync", "libdispatch", threads: "1", samples: Fixture.constant(70)),
            Self.guarded(
                "actor", "none", threads: "1",
                samples: Array(repeating: 4, count: 10) + Array(repeating: 1_000, count: 10)),
        ])
        #expect(
            modes.contains(
                "**Mutex** (5 ns) and **actor** (63.2 ns, 12.6×; modes: 4 ns in 1 of 2 processes, 1000 ns in 1) "
                    + "lead together, none clearly more than 5% behind the fastest; "
                    + "clearly slower than Mutex: DispatchQueue.sync (70 ns)."), "\(modes)")
        #expect(
            text.contains(
                "  - 2 threads per CPU, 100 ns sections 1 µs apart (4 threads here): not measured in this run."))
        #expect(
            text.contains(
                "- **What does an actor hop cost on each executor?** Not measured in this run: "
                    + "`bench run --suite quick --workload swift-async --filter actor-hop` measures it."))
    }

    @Test("concurrentPerform's loop is divided by its iterations; hop latencies are ranked by p50 with p99 beside")
    func perIterationAndLatency() throws {
        let hop = { (backend: String, p50: Double, p99: Double) in
            Fixture.measured(
                "swift-async", backend, [("pattern", "actor-hop")], samples: Fixture.constant(100),
                figures: [
                    "hop_ns.p50": WorkloadMetric(p50, unit: .nanoseconds),
                    "hop_ns.p99": WorkloadMetric(p99, unit: .nanoseconds),
                ])
        }
        let text = try report([
            Fixture.measured(
                "swift-async", "swift-concurrency", [("pattern", "task-group-child"), ("body", "1us")],
                samples: Fixture.constant(1_300)),
            Fixture.measured(
                "apply-stride", "libdispatch", [("body", "1us"), ("stride", "auto"), ("iterations", "10000")],
                samples: Fixture.constant(6_000_000)),
            hop("fifo-dispatch", 170, 350), hop("swift-concurrency", 45, 61),
        ])
        #expect(
            text.contains(
                "  - 1 µs pieces: **concurrentPerform** is clearly fastest at 600 ns, 2.17× ahead of "
                    + "task group (1.3 µs)"), "\(text)")
        #expect(
            text.contains(
                "  - a hop between two actors, its median latency: **default actors** is clearly lowest at 45 ns, "
                    + "3.78× ahead of fifo-dispatch's serial executors (170 ns; p99 350 ns) (not measured:"),
            "\(text)")
    }
}

extension QuestionsTests {
    @Test("a small body's stride: each stride and the plain loop per iteration, the best named with its margin")
    func smallBodyStride() throws {
        let loop = { (stride: String, nanoseconds: Double) in
            Fixture.measured(
                "apply-stride", "libdispatch", [("body", "100ns"), ("stride", stride), ("iterations", "100000")],
                samples: Fixture.constant(nanoseconds))
        }
        let text = try report([
            loop("1", 30_000_000), loop("8", 7_000_000), loop("64", 5_500_000), loop("512", 5_600_000),
            loop("auto", 8_000_000),
            Fixture.measured(
                "apply-serial", BenchmarkCase.noBackend, [("body", "100ns"), ("iterations", "100000")],
                samples: Fixture.constant(10_000_000)),
        ])
        #expect(text.contains("- **What stride for a small loop body?**"), "\(text)")
        // Constant samples: 55 against 56 ns is clear, but within 5%: no reason to choose.
        #expect(
            text.contains(
                "  - concurrentPerform, 100ns body, per iteration: **stride 64** (55 ns) and **stride 512** (56 ns, "
                    + "1.02×) lead together, none clearly more than 5% behind the fastest; clearly slower than "
                    + "stride 64: stride 8 (70 ns), "
                    + "the automatic stride (80 ns), a plain loop (100 ns), stride 1 (300 ns)"), "\(text)")
        // Four strides within 5% lead together, every one named, in the question's order whichever
        // is fastest: a repeat run that orders them otherwise writes the same answer.
        let four = try report([
            loop("1", 30_000_000), loop("8", 5_600_000), loop("64", 5_500_000), loop("512", 5_550_000),
            loop("auto", 5_520_000),
        ])
        #expect(
            four.contains(
                "  - concurrentPerform, 100ns body, per iteration: **stride 8** (56 ns, 1.02×), **stride 64** (55 ns), "
                    + "**stride 512** (55.5 ns, 1.01×) and **the automatic stride** (55.2 ns, 1.00×) lead together"),
            "\(four)")
        // 9% apart, the best is named with its margin.
        let apart = try report([
            loop("1", 30_000_000), loop("64", 5_500_000), loop("512", 6_000_000), loop("auto", 8_000_000),
        ])
        #expect(
            apart.contains(
                "  - concurrentPerform, 100ns body, per iteration: **stride 64** is clearly fastest at 55 ns, "
                    + "1.09× ahead of stride 512 (60 ns); then the automatic stride (80 ns, 1.45×), "
                    + "stride 1 (300 ns, 5.45×)"),
            "\(apart)")
    }
}

/// A question citing a case the quick suite does not generate would read "not measured" forever:
/// every contender's case is one the quick suite generates, on a backend it runs (or "none").
@Suite("report.md's questions cite the quick suite's cases")
struct QuestionCasesTests {
    @Test("every contender of every question is a quick-suite case")
    func contendersAreQuickCases() throws {
        for question in Question.firstScreen {
            for part in question.parts {
                for contender in part.contenders {
                    let spec = contender.spec
                    let workload = try #require(
                        Workloads.all.first { $0.name == spec.workload.rawValue }, "\(spec): no such workload")
                    let generated = workload.parameterSets(for: .quick).contains { parameters in
                        spec.parameters.allSatisfy(parameters.contains)
                            && workload.usesBackend(for: parameters) == (spec.backend != .none)
                    }
                    #expect(generated, "\(question.text) cites \(spec), which the quick suite does not generate")
                    #expect(
                        spec.backend == .none || BackendName.builtIn.contains(spec.backend),
                        "\(spec): not a built-in backend")
                }
            }
        }
    }
}

@Suite("how figures read")
struct FiguresTests {
    @Test("a bound past Int.max reads in exponent form instead of trapping; times take the unit that keeps them short")
    func hugeValuesAndUnits() {
        #expect(Figures.value(1e20) == "1e20")
        #expect(Figures.value(4 * Double(Int.max)) == "3.69e19")
        #expect(Figures.value(123_456) == "123456")
        #expect(Figures.nanoseconds(4.87) == "4.87 ns")
        #expect(Figures.nanoseconds(1_011) == "1.01 µs")
        #expect(Figures.nanoseconds(57_632_726) == "57.6 ms")
        #expect(Figures.nanoseconds(2.5e9) == "2.5 s")
    }
}

extension QuestionsTests {
    @Test("\"What should I use?\" counts a clear lead under 5% as leading together, as the questions do")
    func closeLeadIsNoWin() throws {
        let spawn = { (backend: String, nanoseconds: Double) in
            Fixture.measured("spawn", backend, [("pattern", "outside")], samples: Fixture.constant(nanoseconds))
        }
        // Constant samples: 100 against 103 ns is clear to the rank test and the intervals alike.
        let close = try report([spawn("work-stealing", 100), spawn("fifo-dispatch", 103)])
        #expect(
            close.contains(
                "- **spawn** (1 parameter set): no contender is clearly fastest in any: work-stealing and "
                    + "fifo-dispatch lead together (within 5% of each other, or their processes spread wider"),
            "\(close)")
        let apart = try report([spawn("work-stealing", 100), spawn("fifo-dispatch", 106)])
        let win = "- **spawn** (1 parameter set): work-stealing is clearly fastest in 1 (pattern=outside), by 1.06×"
        #expect(apart.contains(win), "\(apart)")
        // The same two leading in two sets, each ahead in one: one group, named in the run's order.
        let chain = { (backend: String, nanoseconds: Double) in
            Fixture.measured("spawn", backend, [("pattern", "chain")], samples: Fixture.constant(nanoseconds))
        }
        let twice = try report([
            spawn("work-stealing", 100), spawn("fifo-dispatch", 103), chain("work-stealing", 103),
            chain("fifo-dispatch", 100),
        ])
        #expect(twice.contains("work-stealing and fifo-dispatch lead together in 2 (within 5%"), "\(twice)")
        // Two different groups in two sets: apart by a semicolon, each with its count.
        let queueRing = { (backend: String, nanoseconds: Double) in
            Fixture.measured("spawn", backend, [("pattern", "queue-ring")], samples: Fixture.constant(nanoseconds))
        }
        let groups = try report([
            spawn("work-stealing", 100), spawn("fifo-dispatch", 103), spawn("pthread-mutex", 300),
            queueRing("work-stealing", 100), queueRing("pthread-mutex", 102), queueRing("fifo-dispatch", 300),
        ])
        #expect(
            groups.contains(
                "no contender is clearly fastest in any: work-stealing and fifo-dispatch lead together in 1; "
                    + "work-stealing and pthread-mutex lead together in 1 (within 5%"), "\(groups)")
    }

    @Test("a contender's wins are named by their parameter sets up to two, and counted beyond")
    func winsNamedUpToTwo() throws {
        let set = { (pattern: String, backend: String, nanoseconds: Double) in
            Fixture.measured("spawn", backend, [("pattern", pattern)], samples: Fixture.constant(nanoseconds))
        }
        let two = try report([
            set("outside", "work-stealing", 100), set("outside", "fifo-dispatch", 200),
            set("chain", "work-stealing", 100), set("chain", "fifo-dispatch", 300),
        ])
        #expect(
            two.contains("work-stealing is clearly fastest in 2 (pattern=outside and pattern=chain), by 2.00×–3.00×"),
            "\(two)")
        let three = try report([
            set("outside", "work-stealing", 100), set("outside", "fifo-dispatch", 200),
            set("chain", "work-stealing", 100), set("chain", "fifo-dispatch", 300),
            set("queue-pingpong", "fifo-dispatch", 100), set("queue-pingpong", "work-stealing", 150),
        ])
        #expect(
            three.contains(
                "work-stealing is clearly fastest in 2 (pattern=outside and pattern=chain), by 2.00×–3.00× over the "
                    + "runner-up; fifo-dispatch in 1 (pattern=queue-pingpong), by 1.50×"), "\(three)")
        let many = try report(
            ["outside", "chain", "queue-pingpong"].flatMap {
                [set($0, "work-stealing", 100), set($0, "fifo-dispatch", 200)]
            })
        #expect(many.contains("work-stealing is clearly fastest in 3, by 2.00× over the runner-up."), "\(many)")
    }
}

extension QuestionsTests {
    @Test("a best in modes leads, its modes shown; a contender between its modes depends on the mode")
    func bestInModes() throws {
        let text = try ModeReportTests.report([
            ModeReportTests.measured(
                "queue-sync", "libdispatch", [(11, 0.001), (12, 0.001), (12.5, 0.001), (2_500, 2)]),
            ModeReportTests.measured(
                "swift-mutex", "none", [(30, 0.001), (30.5, 0.001), (31, 0.001), (31.5, 0.001)]),
            ModeReportTests.measured("actor", "none", [(60, 0.001), (61, 0.001), (62, 0.001), (63, 0.001)]),
            // Not a contender: one more steady case, the run's typical spread, which a one-process
            // mode borrows.
            ModeReportTests.measured(
                "pthread-mutex", "none", [(40, 0.001), (40.5, 0.001), (41, 0.001), (41.5, 0.001)]),
        ])
        #expect(
            text.contains(
                "  - 2 threads, empty sections: **DispatchQueue.sync** leads at 12.2 ns (modes: 12 ns in 3 of 4 "
                    + "processes, 2.5 µs in 1); ahead of or behind DispatchQueue.sync depending on the mode a "
                    + "process falls into: Mutex (30.7 ns) and actor (61.5 ns)."), "\(text)")
    }
}

extension QuestionsTests {
    @Test("a contender behind by its figure but ahead mode by mode is said to depend on the mode, not to lead")
    func aheadModeByMode() throws {
        let text = try ModeReportTests.report([
            // The best, with two stray slow processes; the other, three processes in a fast mode.
            ModeReportTests.measured(
                "swift-mutex", "none", [136, 137, 137, 138, 138, 8_000, 8_100].map { ($0, 0.001) }),
            ModeReportTests.measured(
                "queue-sync", "libdispatch", [48, 49, 50, 160, 161, 161, 162, 163].map { ($0, 0.001) }),
            ModeReportTests.measured(
                "pthread-mutex", "none", [(40, 0.001), (40.5, 0.001), (41, 0.001), (41.5, 0.001)]),
        ])
        // Compared mode by mode (fast with fast, slow with slow) the queue is ahead; by its figure
        // it is 1.17× behind: neither leading nor slower.
        #expect(
            text.contains(
                "  - 2 threads, empty sections: **Mutex** leads at 138 ns (modes: 137 ns in 5 of 7 processes, "
                    + "8.05 µs in 2); ahead of or behind Mutex depending on the mode a process falls into: "
                    + "DispatchQueue.sync (160 ns; modes: 49 ns in 3 of 8 processes, 161 ns in 5)"), "\(text)")
    }
}

import Counters
import FoundationEssentials
import Results
import Workloads
import Reports

/// A small hand-made run whose every figure is known in advance: each case has two processes, the
/// first half of its samples and the second. Constant samples give that constant as the figure and
/// an interval of a few percent around it (the sitting's spread); halves at two values give a
/// figure between them and a wide interval. Environment fixed (2 CPUs), so nothing depends on the
/// machine running the tests.
enum Fixture {
    static let environment: RunEnvironment = try! JSONDecoder().decode(
        RunEnvironment.self,
        from: Data(
            """
            {"cpuModel": "Test CPU", "onlineCPUs": 2, "kernel": "Linux test", "virtualMachine": "yes \
            (hypervisor flag in /proc/cpuinfo)",
             "cpuGovernor": "unavailable: no cpufreq", "perfEventParanoid": "2", "swiftCompiler": "Swift 6.3",
             "gitCommit": "0123456789abcdef0123456789abcdef01234567", "hostname": "fixture"}
            """.utf8))

    static let noPMU = "no PMU"
    static let notPreloaded = "jemalloc not preloaded"

    /// One case with two processes, the halves of `samples`, each with the given counters and figures.
    static func measured(
        _ workload: String, _ backend: String, _ parameters: [(String, String)], allocator: Allocator = .system,
        samples: [Double], counters: [String: Double] = [:], unavailable: [String: String] = [:],
        figures: [String: WorkloadMetric]? = nil
    ) -> CaseResult {
        let benchmarkCase = BenchmarkCase(
            workload: workload, backend: backend, parameters: parameters.map { Parameter($0.0, $0.1) },
            allocator: allocator)
        var result = CaseResult(benchmarkCase: benchmarkCase)
        let half = (samples.count + 1) / 2
        result.records = [Array(samples.prefix(half)), Array(samples.dropFirst(half))].filter { !$0.isEmpty }
            .enumerated().map { repetition, samples in
                CaseRecord(
                    caseID: benchmarkCase.id, repetition: repetition, batch: 10, nanosecondsPerOperation: samples,
                    metricsPerOperation: counters, unavailable: unavailable, workloadMetrics: figures, cpus: [0, 1])
            }
        return result
    }

    static func constant(_ value: Double) -> [Double] { Array(repeating: value, count: 20) }

    static let cases: [CaseResult] = {
        let software: [String: String] = ["cycles": noPMU, "jemalloc.thread-allocated-bytes": notPreloaded]
        var cases = [
            // spawn, pattern=outside: a tie at the top (pthread-mutex's interval 49.5–52.5 holds 50).
            measured(
                "spawn", "work-stealing", [("pattern", "outside")], samples: constant(50),
                counters: ["task-clock": 48, "syscalls": 0], unavailable: software),
            measured(
                "spawn", "pthread-mutex", [("pattern", "outside")],
                samples: Array(repeating: 49.5, count: 10) + Array(repeating: 52.5, count: 10)),
            measured(
                "spawn", "work-stealing", [("pattern", "outside")], allocator: .jemalloc, samples: constant(60),
                counters: ["task-clock": 58, "syscalls": 0, "jemalloc.thread-allocated-bytes": 64],
                unavailable: ["cycles": noPMU]),
            measured(
                "spawn", "libdispatch", [("pattern", "outside")], samples: constant(200),
                counters: ["task-clock": 210, "syscalls": 0.5], unavailable: software),
            // spawn, pattern=chain: a clear win, 3× over the runner-up.
            measured("spawn", "work-stealing", [("pattern", "chain")], samples: constant(100)),
            measured("spawn", "libdispatch", [("pattern", "chain")], samples: constant(300)),
        ]
        // A case that crashed in every process, and one that cannot run on its backend.
        var crashed = CaseResult(
            benchmarkCase: BenchmarkCase(
                workload: "spawn", backend: "swift-concurrency",
                parameters: [Parameter("pattern", "outside")], allocator: .system))
        crashed.failures = ["crashed: signal 11 (SIGSEGV)"]
        cases.append(crashed)
        var unsupported = CaseResult(
            benchmarkCase: BenchmarkCase(
                workload: "fork-join", backend: "pthread-mutex",
                parameters: [Parameter("fib", "30"), Parameter("form", "task")], allocator: .system))
        unsupported.notApplicable = "join is offered by the work-stealing backend only"
        cases.append(unsupported)
        // queue-vs-lock: a lock that needs no backend against a backend's serial queue, at 1 and 2×CPUs threads.
        for (threads, scale) in [("1", 1.0), ("2xcpus", 3.0)] {
            let setting = [("threads", threads), ("resource", "counter"), ("critical", "0ns"), ("outside", "0ns")]
            cases.append(
                measured("queue-vs-lock", "none", [("guard", "pthread-mutex")] + setting, samples: constant(15 * scale))
            )
            cases.append(
                measured(
                    "queue-vs-lock", "libdispatch", [("guard", "queue-sync")] + setting, samples: constant(20 * scale)))
        }
        // apply-stride at strides 1 and 4 and automatic on two backends, and the serial loop: ns
        // per iteration = ns / 1000. The automatic stride reports the stride it used on
        // work-stealing only (libdispatch's shows it missing).
        for (backend, one, four, automatic) in [
            ("libdispatch", 100_000.0, 20_000.0, 15_000.0), ("work-stealing", 50_000, 10_000, 12_000),
        ] {
            for (stride, nanoseconds) in [("1", one), ("4", four), ("auto", automatic)] {
                let chose =
                    stride == "auto" && backend == "work-stealing"
                    ? ["iterations_per_piece": WorkloadMetric(62.5, unit: .iterations)] : [:]
                cases.append(
                    measured(
                        "apply-stride", backend, [("body", "0ns"), ("stride", stride), ("iterations", "1000")],
                        samples: constant(nanoseconds), figures: chose))
            }
        }
        cases.append(
            measured("apply-serial", "none", [("body", "0ns"), ("iterations", "1000")], samples: constant(5_000)))
        // semaphore ping-pong: hand-off percentiles on a backend's semaphore and on POSIX's.
        cases.append(
            measured(
                "semaphore", "libdispatch", [("pattern", "pingpong"), ("semaphore", "backend")],
                samples: constant(9_000),
                figures: [
                    "handoff_ns.p50": WorkloadMetric(5_000, unit: .nanoseconds),
                    "handoff_ns.p99": WorkloadMetric(20_000, unit: .nanoseconds),
                ]))
        cases.append(
            measured(
                "semaphore", "none", [("pattern", "pingpong"), ("semaphore", "posix")], samples: constant(8_000),
                figures: [
                    "handoff_ns.p50": WorkloadMetric(4_000, unit: .nanoseconds),
                    "handoff_ns.p99": WorkloadMetric(9_000, unit: .nanoseconds),
                ]))
        // footprint: a queued block is slower to set up than a parked thread but holds far less
        // memory, and memory is what the family ranks by.
        cases.append(
            measured(
                "footprint", "none", [("unit", "thread"), ("units", "256")], samples: constant(10_000),
                figures: ["footprint.resident_bytes_per_unit": WorkloadMetric(16_000, unit: .bytes)]))
        cases.append(
            measured(
                "footprint", "libdispatch", [("unit", "queued-block"), ("units", "256")], samples: constant(40_000),
                figures: ["footprint.resident_bytes_per_unit": WorkloadMetric(150, unit: .bytes)]))
        return cases
    }()

    static let run: RunResults = {
        var run = RunResults(
            environment: environment, counterAvailability: RunResults.counterAvailability(of: cases),
            metrics: CounterSet.catalogue + Workloads.figures, suite: .quick,
            repetitions: 2, sampleTimeNanoseconds: 5_000_000, cases: cases)
        run.calibration = ["spin-ns-per-round": 7.9]
        run.tools = ["PAPI": "unavailable: no PMU", "jemalloc": "available: /usr/lib/libjemalloc.so.2"]
        return run
    }()

    /// Every output of `run`, by relative path, rendered once for all the tests.
    static let outputs: [String: String] = {
        Dictionary(uniqueKeysWithValues: try! ResultsWriter.outputs(of: run).map { ($0.path, $0.contents) })
    }()
}

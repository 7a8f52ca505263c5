import ArgumentParser
import Claims
import Counters
import Backends
import Harness
import PThreadPrimitives
import Results
import Workloads

/// How each child measures: `bench run`, `bench check` and `bench ab` share these.
struct MeasurementOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help:
            """
            Samples per child process (default: 5 for the smoke suite, 4 for the quick suite, \
            10 for the full suite, 20 for `bench ab`).
            """)
    var samples: Int?

    @Option(
        name: .customLong("sample-ms"), parsing: .unconditional,
        help: "Minimum duration of one sample, in milliseconds (default: 5 for the quick suite, 10 otherwise).")
    var sampleMilliseconds: Int?

    @Option(parsing: .unconditional, help: "Seconds after which a child is killed and its repetition recorded as hung.")
    var deadline = 60

    @Option(help: "Pin every child to these CPUs, e.g. 1 or 0,2-3 (default: not pinned).")
    var cpus: String?

    @Flag(
        name: .customLong("count-allocations"),
        help:
            """
            Count mallocs, frees, bytes, Swift retains, releases and objects per operation on every thread, \
            through an interposer each child preloads (built beside bench). \
            Timings then include its cost; report.md says so.
            """)
    var countAllocations = false

    @Option(
        name: .customLong("events"),
        help: ArgumentHelp(
            "Also count these events per operation, comma-separated (repeatable): PAPI presets or native names "
                + "(PAPI_TOT_INS, PAPI_L1_DCM), counted through PAPI for every thread, or perf's names (cycles, "
                + "instructions, cache-misses, page-faults, ...), through perf_event_open where PAPI cannot count "
                + "them; `syscalls` counts system calls through the raw_syscalls tracepoint (root and tracefs), "
                + "which slows each call by about 130 ns, so a run leaves it out unless asked. Each is a value or "
                + "'unavailable' with the reason; hardware events need a machine with a PMU (bench doctor says).",
            valueName: "NAMES"))
    var eventLists: [String] = []

    /// The events asked for, in order, each once.
    var events: [String] {
        var seen: Set<String> = []
        return eventLists.flatMap { $0.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) } }.filter {
            seen.insert($0).inserted
        }
    }

    func validate() throws {
        for list in eventLists
        where list.split(separator: ",", omittingEmptySubsequences: false).contains(where: {
            $0.allSatisfy(\.isWhitespace)
        }) {
            throw ValidationError(
                "--events '\(list)' has an empty name: give names separated by commas, e.g. "
                    + "--events PAPI_TOT_INS,cycles")
        }
        if let samples, samples < 1 { throw ValidationError("--samples must be at least 1, got \(samples)") }
        if let sampleMilliseconds, sampleMilliseconds < 1 {
            throw ValidationError("--sample-ms must be at least 1, got \(sampleMilliseconds)")
        }
        guard deadline >= 1 else { throw ValidationError("--deadline must be at least 1 second, got \(deadline)") }
        if let cpus {
            do { _ = try CPUAffinity.parse(cpus) } catch { throw ValidationError(error.description) }
        }
    }

    func sampleMilliseconds(for suite: Suite) -> Int { sampleMilliseconds ?? suite.defaultSampleMilliseconds }

    func samples(for suite: Suite) -> Int { samples ?? suite.defaultSamples }

    func sampler(for suite: Suite) -> Sampler {
        Sampler(sampleTime: .milliseconds(sampleMilliseconds(for: suite)), samples: samples(for: suite))
    }

    /// How children are started, with `calibration` measured once by the caller for all of them.
    /// A sanitized build preloads no jemalloc: the sanitizer's own malloc serves the process, and
    /// a preloaded jemalloc serves some calls anyway (libstdc++'s, inside the Swift runtime), so
    /// memory of one allocator reaches the other's free and the child crashes (ThreadSanitizer:
    /// "CHECK failed: sanitizer_allocator_secondary.h", seen on every nio and nio-global case).
    func launcher(for suite: Suite, calibration: [String: Double]) -> CaseLauncher {
        let sanitizer = sanitizerReplacingMalloc()
        return CaseLauncher(
            sampler: sampler(for: suite), deadline: .seconds(deadline),
            jemalloc: sanitizer == nil ? JemallocLibrary.locate() : nil,
            jemallocMissing: sanitizer.map {
                "\($0) replaces malloc in this build: a preloaded jemalloc would share the process with it and "
                    + "free what the other allocated"
            } ?? CaseLauncher.jemallocNotInstalled,
            countsAllocations: countAllocations, events: events, eventsOfCase: Self.claimedEvents,
            cpus: cpus.flatMap { try? CPUAffinity.parse($0) },
            calibration: calibration)
    }

    /// System calls, for the cases whose count a claim reads: "locks always trap" and "semaphores
    /// trap only when blocking" need it, and those cases make none, or block for microseconds
    /// between calls, so the tracepoint's 130 ns per call moves their timings by 1% or less
    /// (Sources/Counters/README.md, "Accuracy"). Every other case runs without it.
    @Sendable static func claimedEvents(_ benchmarkCase: BenchmarkCase) -> [String] {
        syscallCases.contains { $0.matches(benchmarkCase) } ? [SyscallCounters.eventName] : []
    }

    private static let syscallCases = Claim.cases(reading: SyscallCounters.eventName)

    /// What the counting options need, checked before anything runs (exit 2 with the reason):
    /// every event name of --events known to PAPI or to perf; with --count-allocations, the
    /// interposer beside every executable that measures, and a build that is not sanitized.
    func requireCounting(besides executables: [String], label: String) throws {
        let unknown = RequestedEventCounters.unknown(events)
        if !unknown.isEmpty {
            throw ExitStatus.fileProblem(
                "\(label): --events",
                "unknown event" + (unknown.count == 1 ? " " : "s: ") + unknown.joined(separator: "; "))
        }
        guard countAllocations else { return }
        for executable in executables {
            if case .failure(let problem) = Self.interposer(besides: executable) {
                throw ExitStatus.fileProblem("\(label): --count-allocations", problem.description)
            }
        }
    }

    /// The interposer --count-allocations preloads for `executable`'s children, or why it cannot
    /// count: this build is sanitized, or the library is not built beside it.
    static func interposer(besides executable: String) -> Result<String, InterposerLibrary.Missing> {
        if let sanitizer = sanitizerReplacingMalloc() {
            return .failure(
                .init(
                    description: "\(sanitizer) replaces malloc in this build; count allocations with a build "
                        + "that is not sanitized"))
        }
        return InterposerLibrary.locate(besides: executable)
    }

    /// The run engine for `plan`, its children measuring as these options say, with `calibration`
    /// measured once by the caller for all of them.
    func measuredRun(_ plan: RunPlan, suite: Suite, calibration: [String: Double]) -> MeasuredRun {
        var run = MeasuredRun(
            plan: plan, launcher: launcher(for: suite, calibration: calibration), suite: suite,
            sampleTime: .milliseconds(sampleMilliseconds(for: suite)),
            metrics: Self.described + RequestedEventCounters.metrics(for: events), tools: Self.tools)
        let backends = Set(plan.cases.map(\.backend)).compactMap(Backends.named)
        run.backendSummaries = Dictionary(uniqueKeysWithValues: backends.map { ($0.id, $0.summary) })
        return run
    }

    /// Every metric a child of this bench can report, described: the counters', the threads
    /// alive, and the workloads' own figures. A results file carries them; one written before it did is read with them.
    static var described: [Metric] { CounterSet.catalogue + LiveThreads.figures + Workloads.figures }

    /// The optional tools a run looks for, and what it found.
    static var tools: [String: String] {
        var tools = [
            "PAPI": PAPIProbe().summary,
            "jemalloc": JemallocLibrary.locate().map { "available: \($0)" }
                ?? "unavailable: libjemalloc.so.2 not found",
            "interposer": interposerState,
        ]
        // A build that can slow runtime paths says so in every run it makes, with what this
        // process was told (`bench ab` gives each build's children their own environment).
        if InjectedFaults.compiledIn {
            tools["injected faults"] = "a FaultInjection build; here: \(InjectedFaults.active.description)"
        }
        return tools
    }

    /// Whether `--count-allocations` can count with this bench, or why not.
    static var interposerState: String {
        switch interposer(besides: ChildProcess.ownExecutable()) {
        case .success(let path): "available: \(path)"
        case .failure(let problem): "unavailable: \(problem)"
        }
    }
}

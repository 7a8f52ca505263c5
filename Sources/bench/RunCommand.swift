import ArgumentParser
import Claims
import Backends
import Counters
import FoundationEssentials
import Harness
import Reports
import Workloads
#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run workloads on backends, each case in its own process, and write the results.",
        discussion: """
            Every case (workload × parameters × backend × allocator) runs --repetitions times, each
            time in a fresh child process: warm-up, a calibrated batch so one sample lasts
            --sample-ms, then --samples samples. A child that crashes, hangs past --deadline or
            prints garbage is recorded as failed with the reason, and the run goes on; the exit
            status is 1 if any case failed. Finished cases are journaled at once, so an interrupted
            run keeps them (DIR/journal.jsonl).

            Examples:
              bench run --suite smoke
              bench run --suite quick --filter 'mutex' --repetitions 5
              bench run --backend pthread-mutex --backend libdispatch --allocator system
            """
    )

    @Option(help: "How much to run: \(Suite.allCases.map(\.rawValue).joined(separator: ", ")).")
    var suite: String = Suite.quick.rawValue

    @Option(help: "Only cases whose id matches this regular expression (ids look like workload/backend/params/allocator).")
    var filter: String?

    @Option(name: .customLong("workload"), help: "Only this workload (repeatable). `bench list` shows them.")
    var workloads: [String] = []

    @Option(name: .customLong("backend"), help: "Only this backend (repeatable).")
    var backends: [String] = []

    @Option(name: .customLong("allocator"), help: "Only this allocator (repeatable): system, jemalloc.")
    var allocators: [String] = []

    @Option(help: "Child processes per case (default: 2 for the quick suite, 3 otherwise).")
    var repetitions: Int?

    @Option(help: "Samples per child process.")
    var samples = Sampler.defaultSamples

    @Option(name: .customLong("sample-ms"), help: "Minimum duration of one sample, in milliseconds (default: 5 for the quick suite, 10 otherwise).")
    var sampleMillisecondsOption: Int?

    private var chosenSuite: Suite { Suite(rawValue: suite) ?? .quick }
    private var repetitionsPerCase: Int { repetitions ?? chosenSuite.defaultRepetitions }
    private var sampleMilliseconds: Int { sampleMillisecondsOption ?? chosenSuite.defaultSampleMilliseconds }

    @Option(help: "Seconds after which a child is killed and its repetition recorded as hung.")
    var deadline = 60

    @Option(help: "Pin every child to these CPUs, e.g. 1 or 0,2-3 (default: not pinned).")
    var cpus: String?

    @Option(help: "Directory for results.json, results.csv, report.md, charts, exports and journal.jsonl (default: bench-results/<time>).")
    var out: String?

    func validate() throws {
        guard repetitionsPerCase >= 1 else { throw ValidationError("--repetitions must be at least 1, got \(repetitionsPerCase)") }
        guard samples >= 1 else { throw ValidationError("--samples must be at least 1, got \(samples)") }
        guard sampleMilliseconds >= 1 else { throw ValidationError("--sample-ms must be at least 1, got \(sampleMilliseconds)") }
        guard deadline >= 1 else { throw ValidationError("--deadline must be at least 1 second, got \(deadline)") }
        guard Suite(rawValue: suite) != nil else {
            throw ValidationError("unknown suite '\(suite)'; valid: \(Suite.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        try runBlocking { try await self.runAsync() }
    }

    private func runAsync() async throws {
        let plan: RunPlan
        do {
            plan = try RunPlan(
                workloads: try RunPlan.select(workloads, from: Workloads.all, kind: "workload") { $0.name },
                suite: Suite(rawValue: suite)!,
                backends: try RunPlan.select(backends, from: Backends.all, kind: "backend") { $0.id },
                allocators: try RunPlan.select(allocators, from: Allocator.allCases, kind: "allocator") { $0.rawValue },
                filter: filter, repetitions: repetitionsPerCase)
        } catch {
            throw ValidationError(error.description)
        }
        let pinned: [Int]?
        do {
            pinned = try cpus.map { text throws(PlanError) in try CPUAffinity.parse(text) }
        } catch {
            throw ValidationError(error.description)
        }
        let directory = out ?? "bench-results/\(Self.timestamp())"
        let journal: ResultsJournal
        do {
            try OutputDirectory.create(directory)
            journal = try ResultsJournal(path: directory + "/journal.jsonl")
        } catch {
            throw ValidationError("cannot write results to \(directory): \(error)")
        }

        let sampler = Sampler(sampleTime: .milliseconds(sampleMilliseconds), samples: samples)
        // Once, here, before any child: every case of the run then spins the same rounds for the
        // same body cost (children measuring for themselves disagreed by up to ±30%).
        let calibration = WorkloadCalibration.measure()
        let runner = Runner(executable: Self.ownExecutable(), sampler: sampler, deadline: .seconds(deadline),
                            jemalloc: JemallocLibrary.locate(), cpus: pinned, calibration: calibration)
        let progress = ProgressReporter(total: plan.cases.count * plan.repetitions)
        print("bench: \(plan.cases.count) cases × \(plan.repetitions) repetitions → \(directory)")
        let spin = calibration[SpinCalibration.name].map { "\(($0 * 100).rounded() / 100)" } ?? "?"
        print("bench: body costs use \(spin) ns per spin round, measured once for every case of this run")
        // The commit is read before the run: a commit made while it runs (a long run invites one)
        // must not be recorded as what was measured.
        let commit = Self.gitCommit()
        let results = try await runner.run(plan, journal: journal, progress: progress.report)

        let environment = RunEnvironment.capture(gitCommit: commit)
        var run = RunResults(environment: environment, counterAvailability: RunResults.counterAvailability(of: results), suite: suite, repetitions: repetitionsPerCase,
                             sampleTimeNanoseconds: Int64(sampleMilliseconds) * 1_000_000, cases: results)
        run.calibration = calibration
        run.tools = ["PAPI": PAPIProbe().summary,
                     "jemalloc": JemallocLibrary.locate().map { "available: \($0)" } ?? "unavailable: libjemalloc.so.2 not found"]
        let written = try ResultsWriter.write(run, to: directory)
        SummaryTable.print(results)
        if suite != Suite.smoke.rawValue {
            print("\nClaims of the dispatch guide, as this run measured them (`bench claims` reprints them):")
            ClaimsCommand.show(Claim.verdicts(for: run))
        }
        print("bench: wrote \(directory)/: \(ResultsWriter.summary(written)), journal.jsonl")
        print("bench: read \(directory)/report.md first; `bench report \(directory)/results.json` writes the outputs again")
        let failed = results.filter { $0.notApplicable == nil && !$0.failures.isEmpty }
        if !failed.isEmpty {
            print("bench: \(failed.count) case(s) had failures")
            throw ExitCode(1)
        }
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }

    /// This process's executable, re-run for each child.
    static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(length > 0, "cannot read /proc/self/exe: \(String(cString: strerror(errno)))")
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The project's commit, or "unavailable: <why>".
    static func gitCommit() -> String {
        guard let pipe = popen("git rev-parse HEAD 2>/dev/null", "r") else { return "unavailable: cannot run git" }
        var buffer = [CChar](repeating: 0, count: 64)
        let line = fgets(&buffer, 64, pipe).map { _ in String(String(cString: buffer).prefix { !$0.isWhitespace }) }
        pclose(pipe)
        return (line?.count == 40) ? line! : "unavailable: not run from a git checkout"
    }
}

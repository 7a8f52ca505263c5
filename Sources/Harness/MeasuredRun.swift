import Results
import RuntimeKit

/// A run from its plan to its results: every case measured in child processes (`Runner`), then
/// one `RunResults` per build under test, each saying how and where it was measured. `bench run`
/// and `bench check` run it on their own executable, `bench ab` on two builds; the caller opens
/// the journal beforehand and writes the outputs afterwards.
public struct MeasuredRun: Sendable {
    public let plan: RunPlan
    /// How each child is started; its calibrations are recorded with the results.
    public let launcher: CaseLauncher
    public let suite: Suite
    /// The minimum duration of one sample, as the children were asked for it.
    public let sampleTime: Duration
    /// Every counter a child can report, described (`RunResults.metrics`).
    public let metrics: [Metric]
    /// The optional tools the run looked for, and what it found (`RunResults.tools`).
    public let tools: [String: String]

    public init(plan: RunPlan, launcher: CaseLauncher, suite: Suite, sampleTime: Duration, metrics: [Metric],
                tools: [String: String]) {
        self.plan = plan
        self.launcher = launcher
        self.suite = suite
        self.sampleTime = sampleTime
        self.metrics = metrics
        self.tools = tools
    }

    /// A `bench` executable whose children measure, and what its results file says about it.
    public struct BuildUnderTest: Sendable {
        public let executable: String
        public let environment: RunEnvironment

        public init(executable: String, environment: RunEnvironment) {
            self.executable = executable
            self.environment = environment
        }
    }

    /// Every case on `build`, the executable running this (a plain run).
    public func run(_ build: BuildUnderTest, journal: ResultsJournal,
                    progress: (Runner.Event) -> Void) async throws -> RunResults {
        let measured = try await measure(.one(build.executable), journal: journal, progress: progress)
        return results(measured.cases[0], of: build, executable: nil, measured)
    }

    /// Every case on two builds, pair by pair (`bench ab`): one results file each, naming its
    /// executable.
    public func runPaired(a: BuildUnderTest, b: BuildUnderTest, journal: ResultsJournal,
                          progress: (Runner.Event) -> Void) async throws -> (a: RunResults, b: RunResults) {
        let measured = try await measure(.paired(a: a.executable, b: b.executable), journal: journal, progress: progress)
        return (results(measured.cases[0], of: a, executable: a.executable, measured),
                results(measured.cases[1], of: b, executable: b.executable, measured))
    }

    /// What `measure` learnt besides the cases.
    private struct Measured {
        var cases: [[CaseResult]]
        var load: MachineLoad?
        var interrupted: String?
        /// When the first child started.
        var started: RunResults.Instant?
    }

    /// Runs the children with SIGINT and SIGTERM caught, so an interrupted run still returns what
    /// finished; reads the machine's load around it.
    private func measure(_ executables: Runner.Executables, journal: ResultsJournal,
                         progress: (Runner.Event) -> Void) async throws -> Measured {
        Interruption.install()
        let started = RunResults.Instant.now()
        let loadBefore = MachineLoad.Reading.now()
        // Repetitions that finished, whatever came of them: what an interrupted run's note counts,
        // so it agrees with the last progress line.
        var finished = 0
        let cases = try await Runner(launcher: launcher).run(plan, on: executables, journal: journal) { event in
            if case .finished = event { finished += 1 }
            progress(event)
        }
        var measured = Measured(cases: cases)
        measured.started = started
        if let loadBefore, let loadAfter = MachineLoad.Reading.now() { measured.load = MachineLoad(from: loadBefore, to: loadAfter) }
        if let signal = Interruption.signal {
            let planned = plan.cases.count * plan.repetitions * cases.count
            measured.interrupted = "\(Interruption.describe(signal).name) after \(finished) of \(planned) repetitions"
        }
        return measured
    }

    private func results(_ cases: [CaseResult], of build: BuildUnderTest, executable: String?, _ measured: Measured) -> RunResults {
        var environment = build.environment
        // Every child ran pinned to --cpus: those are the CPUs its figures had.
        if let cpus = launcher.cpus { environment.usableCPUs = (environment.usableCPUs ?? UsableCPUs.ofThisProcess()).pinned(to: cpus) }
        var run = RunResults(environment: environment, counterAvailability: RunResults.counterAvailability(of: cases),
                             metrics: metrics, suite: suite.rawValue, repetitions: plan.repetitions,
                             sampleTimeNanoseconds: sampleTime.nanosecondsSaturating, cases: cases)
        run.calibration = launcher.calibration
        run.countedAllocations = launcher.countsAllocations ? true : nil
        run.tools = tools
        run.executable = executable
        run.load = measured.load
        run.interrupted = measured.interrupted
        run.started = measured.started
        return run
    }
}

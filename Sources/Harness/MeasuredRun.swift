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
    /// How long a plain run may spend, after every case's repetitions, on more processes for the
    /// cases whose processes fell into modes (`ProcessMode`): zero for none.
    public var modeBudget: Duration = .zero
    /// One round of more processes, before the modes', for the cases the run's answers cannot yet
    /// tell apart; nil for none.
    public var answerRound: AnswerRound?
    /// The one-line summary of each backend the plan measures, by id, for results.json.
    public var backendSummaries: [String: String] = [:]

    public init(
        plan: RunPlan, launcher: CaseLauncher, suite: Suite, sampleTime: Duration, metrics: [Metric],
        tools: [String: String]
    ) {
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

    /// Every case on `build`, the executable running this (a plain run). The journal starts with
    /// the run's header (`RunJournal`); with `resuming`, the journal of the same plan killed or
    /// interrupted before its end, its finished repetitions are kept and only the others run,
    /// appended to the same journal.
    public func run(
        _ build: BuildUnderTest, journal: ResultsJournal, resuming: RunJournal? = nil,
        progress: (Runner.Event) -> Void
    ) async throws -> RunResults {
        let started = resuming?.header.run.started ?? .now()
        if resuming == nil {
            var opening = Measured(cases: [[]])
            opening.started = started
            try journal.append(
                JournalHeader(run: results([], of: build, executable: nil, opening), plan: plan.cases).line)
        }
        let finished = resuming?.finished ?? []
        let measured = try await measure(
            .one(build.executable), planned: plan.cases.count * plan.repetitions, started: started,
            resuming: resuming, journal: journal, progress: progress
        ) { runner, progress, cases in
            var seconds = [Double](repeating: 0, count: plan.cases.count)
            guard
                try await runner.run(
                    Runner.Round(cases: plan.cases.indices, repetitions: 0..<plan.repetitions), of: plan,
                    on: .one(build.executable), into: &cases,
                    elapsed: { seconds[$0] = max(seconds[$0], $1.inSeconds) }, journal: journal, progress: progress,
                    skipping: { finished.contains(JournalEntry.Key(caseID: $0.id, repetition: $1)) })
            else { return false }
            guard
                let next = try await settleAnswers(
                    runner, build: build, cases: &cases, secondsPerProcess: seconds, journal: journal,
                    progress: progress)
            else { return false }
            return try await settleModes(
                runner, build: build, cases: &cases, secondsPerProcess: seconds, firstRepetition: next,
                journal: journal, progress: progress)
        }
        return results(measured.cases[0], of: build, executable: nil, measured)
    }

    /// A mode's share is known to this many points either way (Wilson's interval) before more
    /// processes stop being added to its case.
    public static let settledShare = 0.15
    /// Processes added to each unsettled case per round: two, so that a round moves every case
    /// while the budget lasts.
    static let processesPerModeRound = 2

    /// The cases (indices) whose processes fell into modes with a share not yet known to
    /// ±`settledShare`, and did not change mode as they ran (`ModeSwitching`), how many; and those
    /// of them that get `processesPerModeRound` more in the next round: the cheapest first, each
    /// only if it fits in `secondsLeft`.
    static func casesToSettle(_ cases: [CaseResult], secondsPerProcess: [Double], secondsLeft: Double)
        -> (unsettled: Int, chosen: [Int])
    {
        let estimates = RunEstimates(cases)
        // A case whose processes changed mode as they ran is left out: each process mixes the
        // modes by the time it spent in each, so more processes measure the mix again, not a share.
        let unsettled = cases.indices.filter { index in
            (estimates[cases[index].benchmarkCase.id]?.modes.contains { $0.shareUncertainty > settledShare } ?? false)
                && ModeSwitching(cases[index].records) == nil
        }
        let chosen = ProcessBudget.cheapestFirst(
            unsettled, secondsPerProcess: secondsPerProcess, processes: processesPerModeRound, seconds: secondsLeft)
        return (unsettled.count, chosen)
    }

    /// Runs `answerRound`, if any: `AnswerRound.processes` more of each case it chooses, numbered
    /// from the plan's repetitions. Returns the next repetition number, or nil when the run was
    /// interrupted.
    private func settleAnswers(
        _ runner: Runner, build: BuildUnderTest, cases: inout [[CaseResult]], secondsPerProcess: [Double],
        journal: ResultsJournal, progress: (Runner.Event) -> Void
    ) async throws -> Int? {
        let first = plan.repetitions
        guard let answerRound else { return first }
        let (undecided, chosen) = answerRound.choose(
            cases[0], secondsPerProcess: secondsPerProcess, seconds: answerRound.budget.inSeconds)
        guard !chosen.isEmpty else { return first }
        progress(.settlingAnswers(cases: undecided, chosen: chosen.count, processes: AnswerRound.processes))
        let round = Runner.Round(cases: chosen, repetitions: first..<(first + AnswerRound.processes))
        guard try await run(round, runner, build: build, cases: &cases, journal: journal, progress: progress)
        else { return nil }
        return round.repetitions.upperBound
    }

    /// One round of more processes on `build`. Returns false when the run was interrupted.
    private func run(
        _ round: Runner.Round, _ runner: Runner, build: BuildUnderTest, cases: inout [[CaseResult]],
        journal: ResultsJournal, progress: (Runner.Event) -> Void
    ) async throws -> Bool {
        try await runner.run(
            round, of: plan, on: .one(build.executable), into: &cases, journal: journal, progress: progress)
    }

    /// Adds processes, `processesPerModeRound` per round, to the cases whose processes fell into
    /// modes whose shares are not yet known to ±`settledShare`, while `modeBudget` lasts: the
    /// cheapest first (`secondsPerProcess`, each case's slowest process so far), and only those
    /// whose round fits what is left. Their repetitions are numbered from `firstRepetition`, after
    /// any the answers' round took. Returns false when the run was interrupted.
    private func settleModes(
        _ runner: Runner, build: BuildUnderTest, cases: inout [[CaseResult]], secondsPerProcess: [Double],
        firstRepetition: Int, journal: ResultsJournal, progress: (Runner.Event) -> Void
    ) async throws -> Bool {
        guard modeBudget > .zero else { return true }
        let clock = ContinuousClock(), deadline = clock.now + modeBudget
        var next = firstRepetition
        var announced = false
        while true {
            let (unsettled, chosen) = Self.casesToSettle(
                cases[0], secondsPerProcess: secondsPerProcess, secondsLeft: (deadline - clock.now).inSeconds)
            guard !chosen.isEmpty else { return true }
            if !announced {
                progress(.addingProcesses(cases: unsettled, budget: modeBudget))
                announced = true
            }
            let round = Runner.Round(cases: chosen, repetitions: next..<(next + Self.processesPerModeRound))
            guard try await run(round, runner, build: build, cases: &cases, journal: journal, progress: progress)
            else { return false }
            next = round.repetitions.upperBound
        }
    }

    /// Every case on two builds, pair by pair (`bench ab`): one results file each, naming its
    /// executable. Every case runs `plan.repetitions` pairs, unless `next` is given: then the
    /// plan's repetitions are the first round, and after each round `next` sees what was measured
    /// and says which cases run which further pairs, or nil to stop (`bench ab --budget`).
    public func runPaired(
        a: BuildUnderTest, b: BuildUnderTest, journal: ResultsJournal,
        progress: (Runner.Event) -> Void,
        next: ((PairedLook) -> Runner.Round?)? = nil
    ) async throws -> (a: RunResults, b: RunResults) {
        let executables = Runner.Executables.paired(a: a.executable, b: b.executable)
        // With rounds decided as they come, how many there will be is not known.
        let planned = next == nil ? plan.cases.count * plan.repetitions * 2 : nil
        let measured = try await measure(
            executables, planned: planned, started: .now(), journal: journal, progress: progress
        ) { runner, progress, cases in
            var round = Runner.Round(cases: plan.cases.indices, repetitions: 0..<plan.repetitions)
            var seconds = [Double](repeating: 0, count: plan.cases.count),
                pairs = [Int](repeating: 0, count: plan.cases.count)
            let clock = ContinuousClock(), start = clock.now
            while true {
                let complete = try await runner.run(
                    round, of: plan, on: executables, into: &cases,
                    elapsed: { position, duration in
                        seconds[position] += duration.inSeconds
                        pairs[position] += 1
                    }, journal: journal, progress: progress)
                guard complete else { return false }
                guard let next else { return true }
                let look = PairedLook(
                    a: results(cases[0], of: a, executable: a.executable, Measured(cases: cases)),
                    b: results(cases[1], of: b, executable: b.executable, Measured(cases: cases)),
                    pairs: pairs, secondsPerPair: zip(seconds, pairs).map { $1 > 0 ? $0 / Double($1) : 0 },
                    elapsed: clock.now - start)
                guard let following = next(look) else { return true }
                round = following
            }
        }
        return (
            results(measured.cases[0], of: a, executable: a.executable, measured),
            results(measured.cases[1], of: b, executable: b.executable, measured)
        )
    }

    /// What a paired run has measured after a round: each build's results so far, and per case
    /// (in the plan's order) its pairs and the mean wall time of one.
    public struct PairedLook: Sendable {
        public let a: RunResults
        public let b: RunResults
        public let pairs: [Int]
        public let secondsPerPair: [Double]
        /// Since the first child started.
        public let elapsed: Duration
    }

    /// What `measure` learnt besides the cases.
    private struct Measured {
        var cases: [[CaseResult]]
        var load: MachineLoad?
        var interrupted: String?
        /// When the first child started.
        var started: RunResults.Instant?
    }

    /// Runs the children with SIGINT, SIGTERM and SIGHUP caught, so an interrupted run still returns what
    /// finished; reads the machine's load around it. `planned` children, when known, for the note
    /// of an interrupted run. `rounds` runs the children (with this
    /// progress, which counts them) into the cases, and returns false when interrupted.
    private func measure(
        _ executables: Runner.Executables, planned: Int?, started: RunResults.Instant, resuming: RunJournal? = nil,
        journal: ResultsJournal, progress: (Runner.Event) -> Void,
        rounds: (Runner, (Runner.Event) -> Void, inout [[CaseResult]]) async throws -> Bool
    ) async throws -> Measured {
        Interruption.install()
        let loadBefore = MachineLoad.Reading.now()
        var cases = Runner.empty(plan, on: executables)
        // Repetitions that finished, whatever came of them (those of the run resumed too): what
        // an interrupted run's note counts, so it agrees with the last progress line.
        var finished = 0
        if let resuming { (cases[0], finished) = resuming.filed(into: plan.cases) }
        let complete = try await withoutActuallyEscaping(progress) { progress in
            try await rounds(
                Runner(launcher: launcher),
                { event in
                    if case .finished = event { finished += 1 }
                    progress(event)
                }, &cases)
        }
        var measured = Measured(cases: complete ? cases : cases.map(\.finished))
        measured.started = started
        if let loadBefore, let loadAfter = MachineLoad.Reading.now() {
            measured.load = MachineLoad(from: loadBefore, to: loadAfter)
        }
        if let signal = Interruption.signal {
            measured.interrupted =
                "\(Interruption.describe(signal).name) after \(finished)" + (planned.map { " of \($0)" } ?? "")
                + " repetitions"
        }
        return measured
    }

    private func results(_ cases: [CaseResult], of build: BuildUnderTest, executable: String?, _ measured: Measured)
        -> RunResults
    {
        var environment = build.environment
        // Every child ran pinned to --cpus: those are the CPUs its figures had.
        if let cpus = launcher.cpus {
            environment.usableCPUs = (environment.usableCPUs ?? UsableCPUs.ofThisProcess()).pinned(to: cpus)
        }
        var run = RunResults(
            environment: environment, counterAvailability: RunResults.counterAvailability(of: cases),
            metrics: metrics, suite: suite, repetitions: plan.repetitions,
            sampleTimeNanoseconds: sampleTime.nanosecondsSaturating, cases: cases)
        run.calibration = launcher.calibration
        run.countedAllocations = launcher.countsAllocations ? true : nil
        run.tools = tools
        run.backends = backendSummaries.isEmpty ? nil : backendSummaries
        run.executable = executable
        run.load = measured.load
        run.interrupted = measured.interrupted
        run.started = measured.started
        return run
    }
}

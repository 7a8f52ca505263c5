import Results
import FoundationEssentials

/// The parent side of a run, plain or paired: one child process per case, repetition and build,
/// each outcome journaled the moment it arrives, a failure recorded with its reason while the
/// run goes on.
///
/// A plain run has one executable (normally this process's own). A paired run (`bench ab`) has
/// two builds, A and B; the two processes of a pair run back to back in the order of
/// `Build.order(ofPair:)`, and process i of A and process i of B both record repetition i: that
/// is how the comparison matches them (`Comparison.Pairing.paired`).
public struct Runner: Sendable {
    /// How each child is started and its output judged.
    public let launcher: CaseLauncher

    public init(launcher: CaseLauncher) {
        self.launcher = launcher
    }

    public enum Event: Sendable {
        case started(index: Int, total: Int, id: String, repetition: Int)
        case finished(index: Int, total: Int, id: String, repetition: Int, outcome: String)
        /// After every case's repetitions: `cases` cases whose processes fell into modes get more
        /// processes, for at most `budget` (`MeasuredRun.modeBudget`).
        case addingProcesses(cases: Int, budget: Duration)
        /// After every case's repetitions: `chosen` of the `cases` cases on which an answer hangs
        /// undecided get `processes` more each (`MeasuredRun.answerRound`).
        case settlingAnswers(cases: Int, chosen: Int, processes: Int)
    }

    /// What the executables under test are: one, or the two builds of a paired run.
    public enum Executables: Sendable {
        case one(String)
        case paired(a: String, b: String)
    }

    /// Some of a plan's cases over a range of repetitions: one look of a sequential `bench ab`
    /// (`MeasuredRun.runPaired`), or a whole run (every case, every repetition).
    public struct Round: Sendable, Equatable {
        /// Indices into the plan's cases, in the order they run within a repetition.
        public let cases: [Int]
        public let repetitions: Range<Int>

        public init(cases: some Sequence<Int>, repetitions: Range<Int>) {
            self.cases = Array(cases)
            self.repetitions = repetitions
        }

        /// Children per build.
        public var processes: Int { cases.count * repetitions.count }
    }

    /// An empty result per case and build: what rounds fill.
    public static func empty(_ plan: RunPlan, on executables: Executables) -> [[CaseResult]] {
        let sides = if case .paired = executables { 2 } else { 1 }
        return Array(repeating: plan.cases.map { CaseResult(benchmarkCase: $0) }, count: sides)
    }

    /// Runs `round`, filing each outcome into `results` (from `empty`). `elapsed` gets each
    /// case's wall time (both builds' children), for a budget's estimate of the next round.
    /// Returns false when the run was interrupted.
    /// `skipping` says which repetitions of which cases ran already (a resumed run): they are
    /// neither run nor counted in the progress lines' total.
    public func run(
        _ round: Round, of plan: RunPlan, on executables: Executables, into results: inout [[CaseResult]],
        elapsed: ((Int, Duration) -> Void)? = nil, journal: ResultsJournal,
        progress: (Event) -> Void, skipping: ((BenchmarkCase, Int) -> Bool)? = nil
    ) async throws -> Bool {
        let builds: (Int) -> [Build?]
        let executable: (Build?) -> String
        switch executables {
        case .one(let path):
            builds = { _ in [nil] }
            executable = { _ in path }
        case .paired(let a, let b):
            builds = Build.order(ofPair:)
            executable = { $0 == .b ? b : a }
        }
        let skipped =
            skipping.map { skip in
                round.repetitions.reduce(0) { count, repetition in
                    count + round.cases.filter { skip(plan.cases[$0], repetition) }.count
                }
            } ?? 0
        let total = (round.processes - skipped) * results.count
        var index = 0
        let clock = ContinuousClock()
        // Repetitions are the outer loop: the processes of one case are spread over the round's
        // whole duration, so a slow minute of the machine does not land on one case alone.
        for repetition in round.repetitions {
            for position in round.cases {
                let benchmarkCase = plan.cases[position]
                if let skipping, skipping(benchmarkCase, repetition) { continue }
                let start = clock.now
                for build in builds(repetition) {
                    index += 1
                    guard
                        let outcome = try await launcher.step(
                            benchmarkCase, repetition: repetition, executable: executable(build),
                            build: build, index: index, total: total, journal: journal,
                            progress: progress)
                    else { return false }
                    results[build == .b ? 1 : 0][position].file(outcome)
                }
                elapsed?(position, clock.now - start)
            }
        }
        return true
    }
}

extension CaseLauncher {
    /// One repetition: unless the run was interrupted, announce it, run its child, journal the
    /// outcome and report it. Returns nil when the run was interrupted, before or during the
    /// child (nothing is journaled then).
    func step(
        _ benchmarkCase: BenchmarkCase, repetition: Int, executable: String, build: Build?,
        index: Int, total: Int, journal: ResultsJournal, progress: (Runner.Event) -> Void
    ) async throws -> Outcome? {
        guard Interruption.signal == nil else { return nil }
        let label = build.map { "\(benchmarkCase.id) [\($0.rawValue)]" } ?? benchmarkCase.id
        progress(.started(index: index, total: total, id: label, repetition: repetition))
        let outcome = try await run(benchmarkCase, repetition: repetition, executable: executable)
        if outcome == .interrupted { return nil }
        try journal.append(JournalEntry(benchmarkCase.id, repetition: repetition, outcome, build: build).line)
        progress(.finished(index: index, total: total, id: label, repetition: repetition, outcome: outcome.summary))
        return outcome
    }
}

extension [CaseResult] {
    /// The cases that got at least one outcome: what an interrupted run reports.
    var finished: [CaseResult] {
        filter { !$0.records.isEmpty || !$0.failures.isEmpty || $0.notApplicable != nil }
    }
}

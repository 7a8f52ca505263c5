import Results
import FoundationEssentials

/// The parent side of a run: one child process per case and repetition, each record journaled
/// the moment it arrives, a failure recorded with its reason while the run goes on.
public struct Runner: Sendable {
    /// The `bench` executable to re-run as a child (normally this process's own executable).
    public let executable: String
    /// How each child is started and its output judged.
    public let launcher: CaseLauncher

    public init(executable: String, launcher: CaseLauncher) {
        self.executable = executable
        self.launcher = launcher
    }

    public init(executable: String, sampler: Sampler, deadline: Duration, jemalloc: String?, cpus: [Int]? = nil,
                calibration: [String: Double]? = nil) {
        self.executable = executable
        launcher = CaseLauncher(sampler: sampler, deadline: deadline, jemalloc: jemalloc, cpus: cpus, calibration: calibration)
    }

    public enum Event: Sendable {
        case started(index: Int, total: Int, id: String, repetition: Int)
        case finished(index: Int, total: Int, id: String, repetition: Int, outcome: String)
    }

    public func run(_ plan: RunPlan, journal: ResultsJournal, progress: (Event) -> Void) async throws -> [CaseResult] {
        let total = plan.cases.count * plan.repetitions
        var results = plan.cases.map { CaseResult(benchmarkCase: $0) }
        var index = 0
        // Repetitions are the outer loop: the processes of one case are spread over the run's
        // whole duration, so a slow minute of the machine does not land on one case alone.
        for repetition in 0..<plan.repetitions {
            for (position, benchmarkCase) in plan.cases.enumerated() {
                index += 1
                guard let outcome = try await launcher.step(benchmarkCase, repetition: repetition, executable: executable,
                                                            build: nil, index: index, total: total, journal: journal, progress: progress)
                else { return results.finished }
                results[position].file(outcome)
            }
        }
        return results
    }
}

extension CaseLauncher {
    /// One repetition as both runners take it: unless the run was interrupted, announce it, run
    /// its child, journal the outcome and report it. Returns nil when the run was interrupted,
    /// before or during the child (nothing is journaled then).
    func step(_ benchmarkCase: BenchmarkCase, repetition: Int, executable: String, build: PairedRunner.Build?,
              index: Int, total: Int, journal: ResultsJournal, progress: (Runner.Event) -> Void) async throws -> Outcome? {
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

/// One line of the journal: a repetition's outcome and, when it produced one, its record.
struct JournalEntry: Codable {
    let caseID: String
    let repetition: Int
    let outcome: String
    let record: CaseRecord?
    /// Which build ran it in a paired run ("A", "B" in the file); nil in a plain run.
    var build: PairedRunner.Build? = nil

    init(_ caseID: String, repetition: Int, _ outcome: CaseLauncher.Outcome, build: PairedRunner.Build? = nil) {
        self.caseID = caseID
        self.repetition = repetition
        self.outcome = outcome.summary
        if case .record(let record) = outcome { self.record = record } else { record = nil }
        self.build = build
    }

    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)  // value types only: cannot fail
    }
}

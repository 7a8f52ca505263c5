import FoundationEssentials

/// The parent side of a run: one child process per case and repetition, each record journaled
/// the moment it arrives, a failure recorded with its reason while the run goes on.
public struct Runner: Sendable {
    /// The `bench` executable to re-run as a child (normally this process's own executable).
    public let executable: String
    public let sampler: Sampler
    /// Wall time after which a child is killed and its repetition recorded as hung.
    public let deadline: Duration
    /// Path of libjemalloc.so.2 for LD_PRELOAD, or nil when jemalloc is not installed.
    public let jemalloc: String?
    /// CPUs every child is pinned to, or nil.
    public let cpus: [Int]?

    /// Handed to every child (`ChildRequest.calibration`).
    public let calibration: [String: Double]?

    public init(executable: String, sampler: Sampler, deadline: Duration, jemalloc: String?, cpus: [Int]? = nil,
                calibration: [String: Double]? = nil) {
        self.calibration = calibration
        self.cpus = cpus
        self.executable = executable
        self.sampler = sampler
        self.deadline = deadline
        self.jemalloc = jemalloc
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
                progress(.started(index: index, total: total, id: benchmarkCase.id, repetition: repetition))
                let outcome = try await runChild(benchmarkCase, repetition: repetition, into: &results[position])
                try journal.append(JournalEntry(caseID: benchmarkCase.id, repetition: repetition, outcome: outcome,
                                                record: results[position].records.last { $0.repetition == repetition }).line)
                progress(.finished(index: index, total: total, id: benchmarkCase.id, repetition: repetition, outcome: outcome))
            }
        }
        return results
    }

    /// Runs one repetition and files its outcome into `result`. Returns "ok" or the reason.
    private func runChild(_ benchmarkCase: BenchmarkCase, repetition: Int, into result: inout CaseResult) async throws -> String {
        var environment: [String: String] = [:]
        if benchmarkCase.allocator == .jemalloc {
            guard let jemalloc else {
                let reason = "jemalloc not installed (no libjemalloc.so.2; tools/install-deps.sh installs it)"
                result.notApplicable = reason
                return "not applicable: \(reason)"
            }
            environment["LD_PRELOAD"] = jemalloc
        }
        let request = ChildRequest(benchmarkCase: benchmarkCase, repetition: repetition, sampler: sampler, cpus: cpus,
                                   calibration: calibration)
        let outcome = try await ChildProcess.run(executable: executable, arguments: ["case", request.encoded()],
                                                 environment: environment, deadline: deadline)
        if case .exited(ChildRequest.notApplicableStatus) = outcome.ending {
            let reason = outcome.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no reason given"
            result.notApplicable = reason
            return "not applicable: \(reason)"
        }
        switch ChildVerdict(outcome) {
        case .failed(let reason):
            result.failures.append(reason)
            return reason
        case .record(let line):
            do {
                let record = try JSONDecoder().decode(CaseRecord.self, from: Data(line.utf8))
                guard record.version == CaseRecord.currentVersion else {
                    throw RecordProblem("record version \(record.version), this bench reads \(CaseRecord.currentVersion)")
                }
                guard record.caseID == benchmarkCase.id, record.repetition == repetition else {
                    throw RecordProblem("record is for \(record.caseID) #\(record.repetition), not \(benchmarkCase.id) #\(repetition)")
                }
                result.records.append(record)
                return "ok"
            } catch {
                let reason = "unreadable output: \(error); last line: \(line.prefix(200))"
                result.failures.append(reason)
                return reason
            }
        }
    }
}

private struct RecordProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One line of the journal: a repetition's outcome and, when it produced one, its record.
struct JournalEntry: Codable {
    let caseID: String
    let repetition: Int
    let outcome: String
    let record: CaseRecord?

    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)  // value types only: cannot fail
    }
}

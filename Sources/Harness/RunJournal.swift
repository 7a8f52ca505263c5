import FoundationEssentials
import Results

/// A plain run's journal (DIR/journal.jsonl), one JSON line per event, each written and flushed
/// as it happens, so a run killed by SIGKILL or a lost machine still has everything it finished:
/// - first, the header: the run as it will be written (`RunResults` with no cases yet: machine,
///   suite, settings, calibration, start) and the cases it plans;
/// - then a `JournalEntry` per repetition that finished, whatever its outcome.
/// `bench report` rebuilds every output from it; `bench run --resume` continues it.
public struct RunJournal: Sendable {
    public static let fileName = "journal.jsonl"

    public let header: JournalHeader
    public let entries: [JournalEntry]

    /// Reads `path`. A last line cut short (the process died while writing it) is left out.
    /// - Throws: `Problem` when the file cannot be read, has no header (a journal of a paired
    ///   run, or of a bench before headers), or holds a line that is not a journal line.
    public init(path: String) throws(Problem) {
        let text: String
        do { text = try readWholeFile(path) } catch { throw Problem(description: "cannot read \(path): \(error)") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let decoder = JSONDecoder()
        var header: JournalHeader?
        var entries: [JournalEntry] = []
        for (number, line) in lines.enumerated() {
            let data = Data(line.utf8)
            if let wrapped = try? decoder.decode(JournalHeader.Line.self, from: data) {
                header = wrapped.header
            } else if let entry = try? decoder.decode(JournalEntry.self, from: data) {
                entries.append(entry)
            } else if number == lines.count - 1, !text.hasSuffix("\n") {
                break  // the line being written when the process died
            } else {
                throw Problem(description: "\(path) line \(number + 1) is not a journal line")
            }
        }
        guard let header else {
            throw Problem(
                description: "\(path) has no header line: it is a paired run's journal (`bench ab`) "
                    + "or was written by a bench before journals had one, and cannot be rebuilt")
        }
        self.header = header
        self.entries = entries
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The repetitions planned: every planned case, `repetitions` times.
    public var planned: Int { header.plan.count * header.run.repetitions }

    /// Which (case, repetition) finished, whatever came of it.
    public var finished: Set<JournalEntry.Key> { Set(entries.map(\.key)) }

    /// The run as far as the journal has it: each finished repetition filed into its case, in
    /// the plan's order. A run with repetitions missing says so in `interrupted`, as an
    /// interrupted run does, with how many of how many it kept.
    public func results() -> RunResults {
        let (cases, kept) = filed(into: header.plan)
        var run = header.run
        run.cases = cases.finished
        run.counterAvailability = RunResults.counterAvailability(of: run.cases)
        if kept < planned {
            run.interrupted =
                run.interrupted
                ?? "killed, or still running, after \(kept) of \(planned) repetitions; rebuilt from its journal"
        }
        return run
    }

    /// A result per case of `plan`, each finished repetition filed into its case (a repetition
    /// journaled twice counts once), and how many repetitions were filed.
    func filed(into plan: [BenchmarkCase]) -> (cases: [CaseResult], repetitions: Int) {
        var cases = plan.map { CaseResult(benchmarkCase: $0) }
        let position = Dictionary(plan.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<JournalEntry.Key>()
        for entry in entries where seen.insert(entry.key).inserted {
            guard let index = position[entry.caseID] else { continue }
            cases[index].file(entry.outcome)
        }
        return (cases, seen.count)
    }
}

/// The journal's first line: the run's own description, and the cases it plans.
public struct JournalHeader: Codable, Sendable {
    /// The run with no cases yet: everything results.json says about how it was measured.
    public var run: RunResults
    /// Every case the run plans, in its order (a case with no finished repetition is not in
    /// `run.cases` of a rebuilt run, but is known here).
    public let plan: [BenchmarkCase]

    public init(run: RunResults, plan: [BenchmarkCase]) {
        var run = run
        run.cases = []
        self.run = run
        self.plan = plan
    }

    /// How the header is written: an object of its own key, so no reader takes it for an entry.
    struct Line: Codable {
        let header: JournalHeader
    }

    public var line: String { journalLine(Line(header: self)) }
}

/// One line of the journal: a repetition's outcome and, when it produced one, its record.
public struct JournalEntry: Codable, Sendable {
    let caseID: String
    let repetition: Int
    let outcomeSummary: String
    let record: CaseRecord?
    /// Which build ran it in a paired run ("A", "B" in the file); nil in a plain run.
    var build: Build? = nil

    enum CodingKeys: String, CodingKey {
        case caseID, repetition, outcomeSummary = "outcome", record, build
    }

    init(_ caseID: String, repetition: Int, _ outcome: CaseLauncher.Outcome, build: Build? = nil) {
        self.caseID = caseID
        self.repetition = repetition
        outcomeSummary = outcome.summary
        if case .record(let record) = outcome { self.record = record } else { record = nil }
        self.build = build
    }

    /// A repetition of a case.
    public struct Key: Hashable, Sendable {
        public let caseID: String
        public let repetition: Int
    }

    public var key: Key { Key(caseID: caseID, repetition: repetition) }

    /// The outcome as the run filed it.
    var outcome: CaseLauncher.Outcome {
        if let record { return .record(record) }
        let notApplicable = CaseLauncher.Outcome.notApplicable("").summary
        if outcomeSummary.hasPrefix(notApplicable) {
            return .notApplicable(String(outcomeSummary.dropFirst(notApplicable.count)))
        }
        return .failed(outcomeSummary)
    }

    var line: String { journalLine(self) }
}

/// `value` as one journal line: sorted keys, so lines of one kind read alike.
private func journalLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try! encoder.encode(value), as: UTF8.self)  // value types only: cannot fail
}

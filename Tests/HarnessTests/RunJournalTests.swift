#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import Testing
import TestSupport

@Suite("a run's journal read back: header, entries, a line cut short")
struct RunJournalTests {
    static let plan = ["a", "b"].map {
        BenchmarkCase(workload: $0, backend: BenchmarkCase.noBackend, parameters: [], allocator: .system)
    }

    static func header(repetitions: Int) -> String {
        let run = RunResults(
            environment: RunEnvironment.capture(gitCommit: "test"), counterAvailability: [:], suite: .quick,
            repetitions: repetitions, sampleTimeNanoseconds: 1_000_000, cases: [])
        return JournalHeader(run: run, plan: plan).line
    }

    static func write(_ text: String) throws -> String {
        let path = TestFiles.directory() + "/journal.jsonl"
        let journal = try ResultsJournal(path: path)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) { try journal.append(String(line)) }
        return path
    }

    @Test(
        "the last line cut short is left out; the rest is filed by case, and the run says how many of how many it kept")
    func cutShortLastLine() throws {
        let path = try Self.write(
            Self.header(repetitions: 2) + "\n" + #"{"caseID":"a/none/-/system","outcome":"hung","repetition":0}"#)
        // A process killed mid-write leaves part of a line and no newline.
        let file = try #require(fopen(path, "a"))
        fputs(#"{"caseID":"b/none/-/sys"#, file)
        fclose(file)
        let journal = try RunJournal(path: path)
        #expect(journal.entries.count == 1)
        #expect(journal.planned == 4)
        let run = journal.results()
        #expect(run.cases.map(\.benchmarkCase.id) == ["a/none/-/system"])
        #expect(run.cases.first?.failures == ["hung"])
        #expect(run.interrupted == "killed, or still running, after 1 of 4 repetitions; rebuilt from its journal")
    }

    @Test("a journal without a header (a paired run's, or an older bench's) cannot be rebuilt, and says why")
    func noHeader() throws {
        let path = try Self.write(#"{"caseID":"a/none/-/system","outcome":"hung","repetition":0}"#)
        #expect(throws: RunJournal.Problem.self) { try RunJournal(path: path) }
        do { _ = try RunJournal(path: path) } catch { #expect(error.description.contains("has no header line")) }
    }

    @Test("a line in the middle that is no journal line is an error naming it, not skipped")
    func garbageInTheMiddle() throws {
        let path = try Self.write(
            Self.header(repetitions: 1) + "\nnot json\n"
                + #"{"caseID":"a/none/-/system","outcome":"hung","repetition":0}"#)
        do {
            _ = try RunJournal(path: path)
            Issue.record("a garbled journal was read")
        } catch {
            #expect(error.description.contains("line 2 is not a journal line"), "\(error.description)")
        }
    }
}

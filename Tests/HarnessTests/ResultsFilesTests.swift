#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import Testing
import TestSupport

@Suite("results files: journal appends survive, final files replace atomically")
struct ResultsFilesTests {
    private func temporaryDirectory() -> String { TestFiles.directory() }

    private func contents(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var text = "", buffer = [CChar](repeating: 0, count: 1024)
        while fgets(&buffer, 1024, file) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return text
    }

    @Test("each append is on disk at once, in order, one line per case")
    func journal() throws {
        let path = temporaryDirectory() + "/journal.jsonl"
        let journal = try ResultsJournal(path: path)
        try journal.append(#"{"case":1}"#)
        #expect(contents(path) == "{\"case\":1}\n")  // readable before the journal is closed
        try journal.append(#"{"case":2}"#)
        #expect(contents(path) == "{\"case\":1}\n{\"case\":2}\n")
        // Reopening appends, it does not truncate: a resumed run keeps what was there.
        try ResultsJournal(path: path).append(#"{"case":3}"#)
        #expect(contents(path)?.split(separator: "\n").count == 3)
    }

    @Test("an unwritable place is an error naming the path and the reason")
    func unwritable() {
        #expect(throws: FileError.self) { try ResultsJournal(path: "/nonexistent-dir/journal.jsonl") }
        do {
            _ = try ResultsJournal(path: "/nonexistent-dir/journal.jsonl")
        } catch {
            #expect(error.description.contains("/nonexistent-dir/journal.jsonl"))
            #expect(error.description.contains("No such file or directory"))
        }
    }

    @Test("writeAtomically replaces the old file whole and leaves no temporary behind")
    func atomic() throws {
        let directory = temporaryDirectory()
        let path = directory + "/results.json"
        try writeAtomically("old", to: path)
        try writeAtomically("new contents", to: path)
        #expect(contents(path) == "new contents")
        #expect(throws: FileError.self) { try writeAtomically("x", to: directory + "/missing/results.json") }
        #expect(contents(path) == "new contents", "a failed write must not touch the existing file")
        let entries = try #require(opendir(directory))
        defer { closedir(entries) }
        var names: [String] = []
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        #expect(names == ["results.json"])
    }

    @Test("the environment is captured with a reason for every fact it cannot read")
    func environment() {
        let environment = RunEnvironment.capture(gitCommit: "abc123")
        #expect(environment.onlineCPUs >= 1)
        #expect(!environment.cpuModel.isEmpty && !environment.kernel.isEmpty)
        for fact in [environment.cpuGovernor, environment.perfEventParanoid, environment.virtualMachine] {
            #expect(!fact.isEmpty)
            #expect(
                !fact.hasPrefix("unavailable") || fact.count > "unavailable: ".count, "an unavailable fact must say why"
            )
        }
    }
}

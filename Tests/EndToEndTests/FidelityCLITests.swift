import Foundation
import Harness
import Results
import Testing

/// `bench fidelity` as a user runs it: every row of the pairs it planned, in the table and in
/// --json with the documented fields, and exit 2 with one line for bad input. Timing verdicts are
/// not asserted (they depend on the machine's load); the exit status is one of the two it may be.
@Suite("bench fidelity end to end")
struct FidelityCLITests {
    func bench(_ arguments: [String]) async throws -> ChildOutcome {
        try await ChildProcess.run(executable: BenchCLITests.bench, arguments: arguments, deadline: .seconds(120))
    }

    @Test("a small run gives every pair's row, in the table and as JSON with the documented fields")
    func rowsAndJSON() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let json = directory + "/fidelity.json"
        let outcome = try await bench([
            "fidelity", "--suite", "smoke", "--backend", "libdispatch-c", "--repetitions", "1",
            "--samples", "3", "--sample-ms", "2", "--json", json, "--out", directory + "/run",
        ])
        #expect(outcome.ending == .exited(0) || outcome.ending == .exited(1), "stderr: \(outcome.standardError)")
        // smoke: the serial queue's sync, a semaphore and one apply, on libdispatch-c, beside their
        // C references; an actor call beside plain Swift on the backend's executors.
        for operation in [
            "serial queue sync, empty section (per section)", "apply, body 10ns, stride auto (per iteration)",
            "actor call (per call)",
        ] {
            #expect(outcome.standardOutput.contains(operation), "\(operation) missing from:\n\(outcome.standardOutput)")
        }
        let text = try #require(BenchCLITests.read(json), "no \(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let rows = try #require(document["rows"] as? [[String: Any]])
        #expect(rows.count == 4, "sync, semaphore, apply and actor call on libdispatch-c: \(rows.count) rows")
        for row in rows {
            for field in ["operation", "backend", "suite_ns", "direct_ns", "ratio", "within_bound", "floor_ns"] {
                #expect(row[field] != nil, "row without \(field): \(row)")
            }
            let layer = row["operation"] as? String == "actor call" ? "plain Swift on its executors" : "C"
            #expect(row["backend"] as? String == "libdispatch-c" && row["layer"] as? String == layer, "\(row)")
            #expect((row["suite_ns"] as? Double ?? 0) > 0 && (row["direct_ns"] as? Double ?? 0) > 0, "\(row)")
        }
        #expect(outcome.standardOutput.contains("rows within 0.8–1.25× of the direct figure"))
    }

    @Test(
        "a mistake on the command line is exit 64 with the reason and fidelity's usage, before anything runs",
        arguments: [
            ["--suite", "huge"], ["--backend", "nope"], ["--gate", "vibes"], ["--allocator", "tcmalloc"],
            ["--repetitions", "0"], ["--repetitions", "-3"], ["--gate", "allocations"],
        ])
    func commandLineMistake(arguments: [String]) async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let outcome = try await bench(["fidelity"] + arguments + ["--out", directory + "/run"])
        #expect(outcome.ending == .exited(64), "\(arguments): \(outcome.ending), stderr: \(outcome.standardError)")
        #expect(
            outcome.standardError.hasPrefix("Error: ") && outcome.standardError.contains("Usage: bench fidelity"),
            "\(outcome.standardError)")
        #expect(BenchCLITests.read(directory + "/run/journal.jsonl") == nil, "\(arguments): something ran")
    }

    @Test("an unwritable --json is exit 2 with one line naming it, before anything runs")
    func unwritableJSON() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let outcome = try await bench([
            "fidelity", "--json", "/nonexistent-directory/f.json", "--out", directory + "/run",
        ])
        #expect(outcome.ending == .exited(2), "\(outcome.ending), stderr: \(outcome.standardError)")
        #expect(
            outcome.standardError.hasPrefix("bench fidelity: cannot write --json /nonexistent-directory/f.json"),
            "\(outcome.standardError)")
        #expect(BenchCLITests.read(directory + "/run/journal.jsonl") == nil, "something ran")
    }
}

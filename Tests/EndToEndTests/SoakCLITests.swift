#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Harness
import Results
import Soak
import Testing

/// `bench soak` as a user runs it: every backend in a child of its own, a table and a JSON file,
/// a crashing backend reported while the others run, bad options refused before anything runs,
/// and an interrupted soak stopped with its child.
@Suite("bench soak end to end")
struct SoakCLITests {
    struct SoakFile: Decodable {
        var interrupted: String?
        var backends: [SoakVerdict]
    }

    static func soakFile(_ path: String) throws -> SoakFile {
        try JSONDecoder().decode(SoakFile.self, from: Data(try #require(BenchCLITests.read(path)).utf8))
    }

    func bench(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildOutcome {
        try await ChildProcess.run(
            executable: BenchCLITests.bench, arguments: arguments, environment: environment, deadline: .seconds(300))
    }

    // The memory limit is lifted in these tests: a ThreadSanitizer build's shadow memory grows
    // with what it has seen. The in-process tests judge memory (SoakCatchesFaultsTests).
    @Test("two backends soaked in turn: exit 0, a table and a JSON report with every operation checked")
    func soakTwoBackends() async throws {
        let json = BenchCLITests.temporaryDirectory() + "/soak.json"
        let outcome = try await bench([
            "soak", "--backend", "pthread-mutex", "--backend", "fifo-dispatch", "--duration", "1",
            "--max-growth", "4096", "--json", json,
        ])
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        #expect(
            outcome.standardOutput.contains("semaphore lock") && outcome.standardOutput.contains("after warm-up"),
            "\(outcome.standardOutput)")
        #expect(outcome.standardError.contains("soak [2/2] fifo-dispatch: passed: "), "\(outcome.standardError)")
        let file = try Self.soakFile(json)
        #expect(file.backends.map(\.backend) == ["pthread-mutex", "fifo-dispatch"])
        for verdict in file.backends {
            #expect(verdict.passed, "\(verdict.backend): \(verdict.reason ?? "")")
            let report = try #require(verdict.report)
            #expect(report.rounds > 0 && report.operations.total > report.rounds)
            #expect(report.residentAfterWarmUp != nil && report.residentAtEnd != nil)
            #expect(report.seconds >= 1)
        }
    }

    @Test(
        "a backend whose child crashes is reported failed with the trap's message; the next backend still runs; exit 1")
    func crashingBackend() async throws {
        let json = BenchCLITests.temporaryDirectory() + "/soak.json"
        let outcome = try await bench(
            [
                "soak", "--backend", "pthread-mutex", "--backend", "work-stealing", "--duration", "1", "--max-growth",
                "4096", "--json", json,
            ],
            environment: ["RUNTIMEBENCH_FAULT_INJECTION": "1", "RUNTIMEBENCH_SOAK_FAULT": "trap:pthread-mutex"])
        #expect(outcome.ending == .exited(1), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("soak: 1 backend(s) failed: pthread-mutex"), "\(outcome.standardError)")
        let file = try Self.soakFile(json)
        #expect(file.backends.map(\.backend) == ["pthread-mutex", "work-stealing"])
        let crashed = file.backends[0]
        #expect(!crashed.passed && crashed.report == nil)
        #expect(
            crashed.reason?.hasPrefix("crashed: ") == true && crashed.reason?.contains("injected soak trap") == true,
            "\(crashed.reason ?? "")")
        #expect(file.backends[1].passed, "\(file.backends[1].reason ?? "")")
        #expect(outcome.standardOutput.contains("FAILED: crashed: "), "\(outcome.standardOutput)")
    }

    @Test("bad options exit 64 with the reason before anything runs")
    func badOptions() async throws {
        let cases: [([String], String)] = [
            (["--backend", "nope"], "unknown backend 'nope'; valid: pthread-mutex"),
            (["--duration", "0"], "--duration must be between 0 and 86400 seconds"),
            (["--duration", "2", "--warm-up", "5"], "--warm-up must be at least 0 and less than --duration"),
            (["--max-growth=-1"], "--max-growth must be 0 or more MiB"),
            (["--wait-timeout", "0"], "--wait-timeout must be between 0 and 3600 seconds"),
        ]
        for (arguments, message) in cases {
            let outcome = try await bench(["soak"] + arguments)
            #expect(outcome.ending == .exited(64), "\(arguments): \(outcome.ending)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
            #expect(!outcome.standardOutput.contains("soak:"), "nothing ran: \(outcome.standardOutput)")
        }
        let unwritable = try await bench(["soak", "--json", "/nonexistent-runtimebench-dir/soak.json"])
        #expect(unwritable.ending == .exited(2), "a file that cannot be written is exit 2: \(unwritable.ending)")
        #expect(
            unwritable.standardError.contains(
                "bench soak: cannot write --json /nonexistent-runtimebench-dir/soak.json: No such file or directory"),
            "\(unwritable.standardError)")
    }

    @Test("SIGINT mid-soak: exit 130, its child stopped, the JSON written and marked interrupted")
    func interruptedSoak() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        // A seed no other test uses tells this soak's child from theirs.
        let script = """
            "\(BenchCLITests.bench)" soak --backend fifo-dispatch --backend pthread-mutex --duration 60 --seed 987654 \
                --json "\(directory)/soak.json" > "\(directory)/stdout" 2> "\(directory)/stderr" &
            pid=$!
            while ! pgrep -f "soak-chil[d] --backend fifo-dispatch .*--seed 987654" > /dev/null; do sleep 0.05; done
            sleep 1
            kill -INT $pid
            wait $pid
            echo "status $?"
            sleep 0.2
            pgrep -f "soak-chil[d] .*--seed 987654" > /dev/null && echo "child left" || echo "no child left"
            """
        let outcome = try await ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", script], deadline: .seconds(120))
        let stderr = BenchCLITests.read(directory + "/stderr") ?? ""
        #expect(outcome.standardOutput.contains("status 130"), "\(outcome.standardOutput) \(stderr)")
        #expect(outcome.standardOutput.contains("no child left"), "\(outcome.standardOutput)")
        #expect(stderr.contains("soak: interrupted by SIGINT after 0 of 2 backends"), "\(stderr)")
        let file = try Self.soakFile(directory + "/soak.json")
        #expect(file.interrupted == "SIGINT")
        #expect(file.backends.isEmpty)
    }
}

import Foundation
import Testing

/// The package's own `bench`, as its users run it: the built-in backends and workloads, and this
/// package's beside them.
@Suite("my-bench: one line of main, every command")
struct MyBenchTests {
    static func built(_ name: String) -> String {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent(name).path
    }

    static func run(_ arguments: [String], binary: String = built("my-bench")) throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("list shows this package's runtime after the built-in ones, and its workload")
    func list() throws {
        let ids = try Self.run(["list", "--ids-only"])
        #expect(ids.status == 0 && ids.output.split(separator: "\n").last == "condition-pool", "\(ids.output)")
        let all = try Self.run(["list"])
        #expect(all.output.contains("lru-cache") && all.output.contains("condition-pool"), "\(all.output)")
    }

    @Test("its help names it by its own name: usage lines and the commands to start with say my-bench")
    func helpSaysItsOwnName() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0 && help.output.contains("USAGE: my-bench <subcommand>"), "\(help.output)")
        #expect(help.output.contains("`my-bench list`") && !help.output.contains("`bench list`"), "\(help.output)")
        let run = try Self.run(["run", "--help"])
        #expect(run.output.contains("USAGE: my-bench run"), "\(run.output)")
    }

    @Test("a run of the workload on this runtime and a built-in one: children re-execute my-bench")
    func run() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("my-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let run = try Self.run([
            "run", "--workload", "lru-cache", "--backend", "condition-pool", "--backend", "fifo-dispatch",
            "--allocator", "system", "--repetitions", "2", "--samples", "2", "--sample-ms", "2", "--out", out,
        ])
        #expect(run.status == 0, "\(run.output)")
        let csv = try String(contentsOfFile: out + "/results.csv", encoding: .utf8)
        for id in ["lru-cache/condition-pool/guard=lock/system", "lru-cache/fifo-dispatch/guard=queue/system"] {
            #expect(csv.contains(id + ",lru-cache,"), "\(id) missing from results.csv")
        }
        // This package's output format, written beside the built-in ones from the same analysis.
        let summary = try String(contentsOfFile: out + "/summary.tsv", encoding: .utf8).split(separator: "\n")
        #expect(summary.first == "case\tns_per_op\tlower\tupper\tprocesses" && summary.count == 5, "\(summary)")
        // This package's counter: counted on its runtime, unavailable with the reason elsewhere.
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/results.json")))
                as? [String: Any])
        for case let result as [String: Any] in results["cases"] as? [Any] ?? [] {
            let backend = (result["benchmarkCase"] as? [String: Any])?["backend"] as? String ?? ""
            for case let record as [String: Any] in result["records"] as? [Any] ?? [] {
                let counted = (record["metricsPerOperation"] as? [String: Double])?["condition-pool.sleeps"]
                let reason = (record["unavailable"] as? [String: String])?["condition-pool.sleeps"]
                if backend == "condition-pool" {
                    #expect(counted != nil && reason == nil, "\(record)")
                } else {
                    #expect(
                        counted == nil && reason == "counts condition-pool's workers; this case runs on \(backend)",
                        "\(record)")
                }
            }
        }
    }

    @Test("a runtime registered twice stops the binary before anything runs: exit 64, naming both")
    func collision() throws {
        let outcome = try Self.run(["list"], binary: Self.built("colliding-bench"))
        #expect(outcome.status == 64, "\(outcome.output)")
        #expect(
            outcome.output.contains("ConditionPool and ConditionPool both have the id 'condition-pool'"),
            "\(outcome.output)")
    }
}

import Harness
import Reports
import Results
import Testing

/// The nio backends through `bench` as a user runs them: nio-global's children install NIO as
/// Swift's global executor before the runtime exists and check that a task then runs on one of
/// NIO's loops (GlobalExecutorTakeover); a child where that failed would report its cases "not
/// applicable" with the reason, so measured records are the children's word that it worked.
/// `NIOGlobalProbeTests` (ConformanceTests) checks the threads' names directly.
@Suite("nio and nio-global through bench")
struct NIOCLITests {
    func bench(_ arguments: [String]) async throws -> ChildOutcome {
        try await ChildProcess.run(executable: BenchCLITests.bench, arguments: arguments, deadline: .seconds(300))
    }

    @Test("swift-async on nio-global is measured in children where NIO took over Swift's global executor")
    func nioGlobalMeasured() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/run"
        let outcome = try await bench([
            "run", "--suite", "smoke", "--workload", "swift-async", "--backend", "nio-global", "--backend", "nio",
            "--allocator", "system", "--repetitions", "1", "--samples", "2", "--sample-ms", "2", "--out", out,
        ])
        #expect(outcome.ending == .exited(0), "stderr: \(outcome.standardError)")
        let run = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json"), "no results.json"))
        let backends = Set(run.cases.map(\.benchmarkCase.backend))
        #expect(backends == ["nio", "nio-global"], "\(backends)")
        for result in run.cases {
            #expect(result.notApplicable == nil, "\(result.benchmarkCase.id): \(result.status)")
            #expect(result.records.count == 1, "\(result.benchmarkCase.id): \(result.status)")
        }
    }

    @Test("bench soak passes on nio and nio-global, each in a child of its own")
    func soakBoth() async throws {
        let outcome = try await bench([
            "soak", "--backend", "nio", "--backend", "nio-global", "--duration", "1", "--max-growth", "4096",
        ])
        #expect(outcome.ending == .exited(0), "\(outcome.standardOutput)\n\(outcome.standardError)")
        #expect(outcome.standardError.contains("nio-global: passed: "), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("] nio: passed: "), "\(outcome.standardError)")
    }
}

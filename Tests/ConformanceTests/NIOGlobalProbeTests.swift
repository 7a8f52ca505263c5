import ConformanceKit
import Harness
import NIORuntimes
import Testing
import TestSupport

/// nio-global as `bench`'s children run it, in a process of its own (`NIOGlobalProbe`): NIO takes
/// over Swift's global executor before any task exists, tasks then run on the singleton's loops,
/// and the conformance kit passes on it.
@Suite("nio-global in a child process that installed NIO as Swift's global executor")
struct NIOGlobalProbeTests {
    static let probe = BuiltProducts.path("NIOGlobalProbe")

    @Test("tasks, detached tasks, default actors and task group children run on NIO's singleton loops")
    func tasksRunOnNIOThreads() async throws {
        let lines = try await probeLines()
        let takeover = try #require(lines.first { $0.hasPrefix("takeover:") }, "no takeover line: \(lines)")
        #expect(takeover.hasPrefix("takeover: installed"), "\(takeover)")
        let threads = lines.filter { $0.hasPrefix("thread ") }
        #expect(threads.count >= 4, "\(lines)")
        for line in threads {
            let name = line.split(separator: ":", maxSplits: 1).last.map { $0.drop { $0 == " " } } ?? ""
            #expect(name.hasPrefix(GlobalExecutorTakeover.singletonThreadPrefix), "\(line)")
        }
    }

    @Test("the conformance kit passes on nio-global there, each scenario run or skipped with its reason")
    func conformanceKitPasses() async throws {
        let lines = try await probeLines()
        let verdicts = lines.filter { $0.hasPrefix("pass ") || $0.hasPrefix("skip ") || $0.hasPrefix("fail ") }
        #expect(verdicts.count == Conformance.scenarios.count, "\(lines.joined(separator: "\n"))")
        for line in verdicts where line.hasPrefix("fail ") { Issue.record("\(line)") }
        for line in verdicts where line.hasPrefix("skip ") { print("⊘ skipped in the probe: \(line.dropFirst(5))") }
        #expect(verdicts.filter { $0.hasPrefix("pass ") }.count >= Conformance.scenarios.count / 2, "\(verdicts)")
    }

    /// The probe runs once for both tests (the kit takes a while there): its ending and lines.
    static let probeRun = Task { () async throws -> ChildOutcome in
        try await ChildProcess.run(executable: probe, arguments: [], deadline: .seconds(600))
    }

    private func probeLines() async throws -> [String] {
        let outcome = try await Self.probeRun.value
        #expect(outcome.ending == .exited(0), "probe: \(outcome.ending); stderr: \(outcome.standardError)")
        return outcome.standardOutput.split(separator: "\n").map(String.init)
    }
}

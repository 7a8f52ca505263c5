import Backends
import Harness
import Results
import Testing
import Workloads

/// spawn and thread-spawn: every pattern passes its own count on every backend; a lost block
/// fails the case with "only k of n" after the pattern's timeout instead of hanging, and a block
/// run twice fails it at `finish()`. Counts decide: the short timeout of the fault tests only
/// bounds how long they take, since the lost block never comes.
@Suite("spawn: every pattern counts its work and never hangs")
struct SpawnTests {
    /// For tests where a block is lost on purpose: the wait is certain to time out, so only its
    /// length matters, and the shorter the cheaper.
    static let lostBlockTimeout: Duration = .milliseconds(500)
    /// For backends that lose nothing: a failure here is a hang, which this only bounds. Long,
    /// because under ThreadSanitizer on a busy 2-core machine the cooperative pool (the
    /// swift-concurrency backend) went without CPU for over 30 s while stress tests ran.
    static let healthyTimeout: Duration = .seconds(300)

    @Test(
        "every spawn pattern passes its own count on every backend", arguments: workloadBackends, Spawn.Pattern.allCases
    )
    func passesOnEveryBackend(backend: Backend, pattern: Spawn.Pattern) async throws {
        let error = try await exercise(
            { Spawn.operation(pattern, on: backend.runtime.init(workers: 0), timeout: Self.healthyTimeout) },
            counts: [1, 50, 200])
        #expect(error == nil, "\(backend.id), \(pattern): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test("spawn's smoke case, prepared as the child prepares it, passes on every backend", arguments: workloadBackends)
    func smokeCaseThroughPrepare(backend: Backend) async throws {
        let workload = Spawn(timeout: Self.healthyTimeout)
        let parameters = try #require(workload.parameterSets(for: .smoke).first)
        let benchmarkCase = BenchmarkCase(
            workload: workload.name, backend: backend.id, parameters: parameters, allocator: .system)
        let error = try await exercise({ try workload.prepare(benchmarkCase, backend: backend) }, counts: [1, 20])
        #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
    }

    /// A lost block, chosen so that which block it is does not depend on timing.
    struct LostBlock: Sendable, CustomStringConvertible {
        let pattern: Spawn.Pattern
        let count: Int
        /// The 0-based pool submission that is dropped.
        let dropped: Int
        /// The most operations that can run once it is lost, and their unit in the message.
        let atMost: Int
        let units: String

        var description: String { "\(pattern), submission \(dropped) of \(count) lost" }
    }

    static let lostBlocks: [LostBlock] = [
        // Only the measuring thread submits: task 3 never runs.
        LostBlock(pattern: .outside, count: 20, dropped: 3, atMost: 19, units: "tasks"),
        // One link at a time: links 0, 1 and 2 run, the fourth submission is the chain's end.
        LostBlock(pattern: .chain, count: 20, dropped: 3, atMost: 3, units: "links"),
        // Submission 0 starts ping's strand, 1 starts pong's (idle until then); later hops may
        // find a strand still draining and submit nothing, so only submission 1 is certain.
        LostBlock(pattern: .queuePingPong, count: 20, dropped: 1, atMost: 1, units: "hops"),
        // Submission 0 is message 0's first drain, before any hop can run: its 5 hops never do.
        LostBlock(pattern: .queueRing, count: 40, dropped: 0, atMost: 35, units: "hops"),
    ]

    @Test(
        "a lost block fails the case with the count after the timeout, and the operation stays failed",
        arguments: lostBlocks)
    func lostBlockIsReportedNotHung(lost: LostBlock) async throws {
        let error = try await exercise(
            {
                Spawn.operation(
                    lost.pattern, on: FaultyRuntime(fault: .drop(submission: lost.dropped)),
                    timeout: Self.lostBlockTimeout)
            }, counts: [lost.count, lost.count])
        let message = try #require(
            verificationMessage(error), "\(lost): expected verificationFailed, got \(String(describing: error))")
        // "only k of n <units> ran within …": k is at most what the lost block leaves possible.
        let words = message.split(separator: " ")
        try #require(words.count > 4 && words[0] == "only" && words[2] == "of", "\(message)")
        let ran = try #require(Int(words[1]), "\(message)")
        #expect(ran <= lost.atMost, "\(lost): \(message)")
        #expect(words[3] == "\(lost.count)" && words[4] == lost.units, "\(lost): \(message)")
    }

    @Test("a block run twice fails the case at finish()", arguments: [Spawn.Pattern.outside, .chain])
    func duplicatedBlockIsCaught(pattern: Spawn.Pattern) async throws {
        // One run only: the extra arrival may wake the measuring thread early, and in a second run
        // it could instead surface as a timeout; after shutdown (which drains pthread-mutex's
        // queue) it is always an arrival too many.
        let error = try await exercise(
            {
                Spawn.operation(
                    pattern, on: FaultyRuntime(fault: .duplicate(submission: 3)), timeout: Self.lostBlockTimeout)
            }, counts: [20])
        let message = try #require(
            verificationMessage(error), "\(pattern): expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("ran twice"), "\(pattern): \(message)")
    }

    @Test("thread-spawn creates, joins and counts its threads")
    func threadSpawnPasses() async throws {
        let error = try await exercise({ ThreadSpawnOperation() }, counts: [1, 5])
        #expect(error == nil, "\(error.map(String.init(describing:)) ?? "")")
    }
}

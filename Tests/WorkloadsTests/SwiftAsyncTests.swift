import Backends
import Harness
import Results
import Testing
import Workloads

/// swift-async: every pattern passes its own check on every backend's executors; a runtime that
/// loses the job that starts a run fails the case with "only 0 of n" after the timeout instead of
/// hanging. (A job run twice is undefined behaviour for Swift's runtime, not a case to provoke.)
@Suite("swift-async: Swift concurrency on each backend's executors, counted")
struct SwiftAsyncTests {
    @Test(
        "every swift-async pattern passes its own count on every backend",
        arguments: workloadBackends, SwiftAsync.Pattern.allCases)
    func passesOnEveryBackend(backend: Backend, pattern: SwiftAsync.Pattern) async throws {
        let error = try await exercise(
            { SwiftAsync.operation(pattern, on: backend.runtime.init(workers: 0), timeout: SpawnTests.healthyTimeout) },
            counts: [1, 50, 2_000])
        #expect(error == nil, "\(backend.id), \(pattern): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test(
        "swift-async's smoke case, prepared as the child prepares it, passes on every backend",
        arguments: workloadBackends)
    func smokeCaseThroughPrepare(backend: Backend) async throws {
        let workload = SwiftAsync(timeout: SpawnTests.healthyTimeout)
        let parameters = try #require(workload.parameterSets(for: .smoke).first)
        let benchmarkCase = BenchmarkCase(
            workload: workload.name, backend: backend.id, parameters: parameters, allocator: .system)
        let error = try await exercise({ try workload.prepare(benchmarkCase, backend: backend) }, counts: [1, 20])
        #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test(
        "a lost job fails the case with the count after the timeout, and the operation stays failed",
        arguments: SwiftAsync.Pattern.allCases)
    func lostJobIsReportedNotHung(pattern: SwiftAsync.Pattern) async throws {
        // Submission 0 is the first job of the run's task, enqueued on the runtime's task executor.
        let error = try await exercise(
            {
                SwiftAsync.operation(
                    pattern, on: FaultyRuntime(fault: .drop(submission: 0)), timeout: SpawnTests.lostBlockTimeout)
            }, counts: [20, 20])
        let message = try #require(
            verificationMessage(error), "\(pattern): expected verificationFailed, got \(String(describing: error))")
        #expect(message.hasPrefix("only 0 of 20 "), "\(pattern): \(message)")
    }
}

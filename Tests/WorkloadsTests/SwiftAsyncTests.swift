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
        "every quick case (actors at 2 and 2xcpus tasks, 1 µs children), prepared as the child does, passes",
        arguments: workloadBackends)
    func quickCasesThroughPrepare(backend: Backend) async throws {
        let workload = SwiftAsync(timeout: SpawnTests.healthyTimeout)
        let sets = workload.parameterSets(for: .quick)
        #expect(sets.contains { $0.contains(Parameter("tasks", "2xcpus")) })
        #expect(sets.contains { $0.contains(Parameter("body", "1us")) })
        for parameters in sets {
            let benchmarkCase = BenchmarkCase(
                workload: workload.name, backend: backend.id, parameters: parameters, allocator: .system)
            let error = try await exercise({ try workload.prepare(benchmarkCase, backend: backend) }, counts: [1, 30])
            #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
        }
    }

    @Test(
        "actor-hop and continuation keep their latencies over the samples, as p50 ≤ p99",
        arguments: workloadBackends, [SwiftAsync.Pattern.actorHop, .continuation])
    func latenciesAreKept(backend: Backend, pattern: SwiftAsync.Pattern) async throws {
        let outcome = try await exerciseSampled(
            { SwiftAsync.operation(pattern, on: backend.runtime.init(workers: 0), timeout: SpawnTests.healthyTimeout) },
            warmUp: 20, sampled: 200)
        #expect(outcome.error == nil, "\(backend.id), \(pattern): \(String(describing: outcome.error))")
        let prefix = pattern == .actorHop ? "hop_ns" : "resume_ns"
        let p50 = try #require(outcome.metrics["\(prefix).p50"]?.value, "\(backend.id): \(outcome.metrics)")
        let p99 = try #require(outcome.metrics["\(prefix).p99"]?.value)
        #expect(p50 > 0 && p50 <= p99, "\(backend.id), \(pattern): p50 \(p50), p99 \(p99)")
    }

    @Test("a tasks count that is not a count, or a missing body, is refused with the valid forms")
    func badParametersAreRefused() throws {
        let workload = SwiftAsync()
        let backend = try #require(Backends.named("fifo-dispatch"))
        for (parameters, expected) in [
            ([Parameter("pattern", "actor-contended"), Parameter("tasks", "many")], "tasks=<2|4|…|2xcpus>"),
            ([Parameter("pattern", "task-group-child")], "body"),
        ] {
            let benchmarkCase = BenchmarkCase(
                workload: workload.name, backend: backend.id, parameters: parameters, allocator: .system)
            #expect {
                try workload.prepare(benchmarkCase, backend: backend)
            } throws: { error in
                guard case .badParameter(let why) = error as? WorkloadError else { return false }
                return why.contains(expected)
            }
        }
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

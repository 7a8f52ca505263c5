import Backends
import Harness
import Results
import RuntimeKit
import Testing
@testable import Workloads

/// fork-join's group form runs on every backend and checks its sum; a lost task fails it by the
/// deadline instead of hanging; the tree sum is right by join and by group.
@Suite("fork-join: groups on every backend, the tree sum, lost tasks")
struct ForkJoinTests {
    @Test("fib and the tree sum by group pass their own check on every backend", arguments: workloadBackends)
    func groupFormOnEveryBackend(backend: Backend) async throws {
        for (fib, tree, cutoff) in [(12, nil, 1), (16, nil, 8), (nil, 8, 1), (nil, 10, 4)] as [(Int?, Int?, Int)] {
            let error = try await exercise(
                {
                    ForkJoin.groupOperation(
                        on: backend.runtime.init(workers: 0), fib: fib, tree: tree, cutoff: cutoff,
                        timeout: .seconds(300))
                }, counts: [1, 3])
            #expect(
                error == nil,
                "\(backend.id), fib \(fib ?? 0), tree \(tree ?? 0): \(error.map(String.init(describing:)) ?? "")")
        }
    }

    @Test(
        "fib by async let, prepared as the child does, is right on every backend's executor at every cutoff",
        arguments: workloadBackends)
    func asyncLetOnEveryBackend(backend: Backend) async throws {
        for (n, cutoff) in [(2, 1), (12, 1), (16, 8), (10, 12)] {
            let benchmarkCase = BenchmarkCase(
                workload: "fork-join", backend: backend.id,
                parameters: [
                    Parameter("fib", "\(n)"), Parameter("form", "async-let"), Parameter("cutoff", "\(cutoff)"),
                ],
                allocator: .system)
            // The healthy bound: on swift-concurrency (and nio-global in this process) the runs
            // share the cooperative pool with every other test, which CI saw starved for 30 s.
            let workload = ForkJoin(timeout: SpawnTests.healthyTimeout)
            let error = try await exercise({ try workload.prepare(benchmarkCase, backend: backend) }, counts: [1, 3])
            #expect(
                error == nil, "\(backend.id), fib \(n) cutoff \(cutoff): \(error.map(String.init(describing:)) ?? "")")
        }
    }

    @Test("a lost job fails the async-let form by its deadline instead of hanging")
    func asyncLetLostJobIsCaught() async throws {
        let error = try await exercise(
            {
                AsyncLetForkJoin.operation(
                    on: FaultyRuntime(fault: .drop(submission: 0)), n: 10, cutoff: 1,
                    timeout: SpawnTests.lostBlockTimeout)
            }, counts: [2])
        let message = try #require(verificationMessage(error))
        #expect(message.hasPrefix("only 0 of 2 "), "\(message)")
    }

    @Test("the tree sum by join is right at every cutoff")
    func treeByJoin() async throws {
        let workload = ForkJoin()
        let stealing = try #require(Backends.named("work-stealing"))
        for cutoff in [0, 1, 3, 9] {
            let benchmarkCase = BenchmarkCase(
                workload: "fork-join", backend: "work-stealing",
                parameters: [Parameter("tree", "9"), Parameter("form", "task"), Parameter("cutoff", "\(cutoff)")],
                allocator: .system)
            let error = try await exercise({ try workload.prepare(benchmarkCase, backend: stealing) }, counts: [1, 4])
            #expect(error == nil, "cutoff \(cutoff): \(error.map(String.init(describing:)) ?? "")")
        }
    }

    @Test("a lost task fails the group form by its deadline, and the operation stays failed")
    func lostTaskIsCaught() async throws {
        let error = try await exercise(
            {
                ForkJoin.groupOperation(
                    on: FaultyRuntime(fault: .drop(submission: 5)), fib: 10, tree: nil, cutoff: 1,
                    timeout: .milliseconds(500))
            }, counts: [1, 1])
        let message = try #require(verificationMessage(error))
        #expect(message.contains("still not empty"), "\(message)")
    }

    @Test("a tree's expected sum is that of its breadth-first indices")
    func treeSums() {
        for depth in 1...10 {
            #expect(TreeNode.perfect(depth: depth)!.sum() == TreeNode.expectedSum(depth: depth))
        }
        #expect(TreeNode.expectedSum(depth: 3) == 0 + 1 + 2 + 3 + 4 + 5 + 6)
    }

    @Test("fork-join refuses two problems, none, or a tree sum by closures")
    func badProblems() {
        let stealing = Backends.named("work-stealing")!
        for parameters in [
            [Parameter("fib", "10"), Parameter("tree", "4")], [Parameter("form", "group")],
            [Parameter("tree", "4"), Parameter("form", "closure")], [Parameter("tree", "40")],
            [Parameter("tree", "4"), Parameter("form", "async-let")],
        ] {
            let benchmarkCase = BenchmarkCase(
                workload: "fork-join", backend: "work-stealing", parameters: parameters, allocator: .system)
            #expect(throws: WorkloadError.self, "\(parameters)") {
                _ = try ForkJoin().prepare(benchmarkCase, backend: stealing)
            }
        }
    }
}

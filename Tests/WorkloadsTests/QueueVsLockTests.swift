import Backends
import Harness
import Results
import PThreadPrimitives
import Synchronization
import Testing
@testable import Workloads

/// queue-vs-lock: every guard keeps its resource consistent on every backend, with one thread and
/// with several; a guard that loses or repeats an update fails the case with the counts; each
/// participant's share is counted. Counts decide, never timing.
@Suite("queue-vs-lock: every guard counts its critical sections")
struct QueueVsLockTests {
    /// A failure here is a hang, which this only bounds (see `SpawnTests.healthyTimeout`).
    static let healthyTimeout: Duration = .seconds(300)

    static let ownGuards = QueueVsLock.Guard.allCases.filter { !$0.fromBackend }
    static let backendGuards = QueueVsLock.Guard.allCases.filter(\.fromBackend)

    static func resource(_ kind: SharedResource.Kind = .dictionary) -> SharedResource {
        SharedResource(kind: kind, criticalRounds: 1)
    }

    @Test(
        "the guards that need no backend keep the dictionary consistent with 1 and 3 threads",
        arguments: ownGuards, [1, 3])
    func ownGuardsAreConsistent(kind: QueueVsLock.Guard, threads: Int) async throws {
        let error = try await exercise(
            {
                try QueueVsLock.operation(
                    kind, threads: threads, resource: Self.resource(), outsideRounds: 1,
                    backend: nil, timeout: Self.healthyTimeout)
            }, counts: [1, 17, 2_000])
        #expect(error == nil, "\(kind), \(threads) threads: \(error.map(String.init(describing:)) ?? "")")
    }

    @Test(
        "a backend's semaphore and serial queue (sync and async) keep the dictionary consistent with 3 threads",
        arguments: workloadBackends, backendGuards)
    func backendGuardsAreConsistent(backend: Backend, kind: QueueVsLock.Guard) async throws {
        let error = try await exercise(
            {
                try QueueVsLock.operation(
                    kind, threads: 3, resource: Self.resource(), outsideRounds: 1,
                    backend: backend, timeout: Self.healthyTimeout)
            }, counts: [1, 17, 2_000])
        #expect(error == nil, "\(backend.id), \(kind): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test("every section is counted in some thread's share, and the fairness figures bracket 1")
    func sharesAddUp() async throws {
        let shares = try await onDedicatedThread { () -> [Int] in
            let threads = ContendingThreads(
                threads: 3, guarding: PThreadMutexGuard(Self.resource(.counter)),
                outsideRounds: 0, timeout: Self.healthyTimeout)
            defer { threads.stop() }
            try threads.perform(1_000)
            try threads.perform(35)
            return threads.quota.shares
        }
        #expect(shares.count == 3 && shares.reduce(0, +) == 1_035, "\(shares)")

        let metrics = try await onDedicatedThread { () -> [String: WorkloadMetric] in
            let operation = try QueueVsLock.operation(
                .swiftMutex, threads: 2, resource: Self.resource(), outsideRounds: 0,
                backend: nil, timeout: Self.healthyTimeout)
            operation.beginSamples()
            try operation.run(500)
            try operation.finish()
            return operation.workloadMetrics
        }
        let least = try #require(metrics["fairness.min_share"]?.value)
        let most = try #require(metrics["fairness.max_share"]?.value)
        #expect(least >= 0 && least <= 1 && most >= 1 && most <= 2 && abs(least + most - 2) < 1e-9, "\(least), \(most)")
    }

    /// A guard that applies one update too few or one too many, once, after `after` sections:
    /// the run's check must name the counts.
    final class MiscountingGuard: ResourceGuard, @unchecked Sendable {
        private let inner: PThreadMutexGuard
        let sections: SectionLoop
        init(after: Int, extra: Bool) {
            let inner = PThreadMutexGuard(SharedResource(kind: .dictionary, criticalRounds: 0))
            let performed = Atomic<Int>(0)
            self.inner = inner
            sections = { count, _ in
                for _ in 0..<count {
                    let number = performed.wrappingAdd(1, ordering: .relaxed).oldValue
                    if number == after && !extra { continue }
                    inner.sections(number == after && extra ? 2 : 1, 0)
                }
            }
        }

        func settle(expected: Int) -> String? { inner.settle(expected: expected) }
    }

    @Test(
        "a lost or a repeated update fails the run with the counts, and the operation stays failed",
        arguments: [false, true])
    func miscountIsCaught(extra: Bool) async throws {
        let error = try await exercise(
            {
                QueueVsLockOperation(
                    ContendingThreads(
                        threads: 2, guarding: MiscountingGuard(after: 40, extra: extra),
                        outsideRounds: 0, timeout: Self.healthyTimeout))
            }, counts: [30, 30, 30])
        let message = try #require(verificationMessage(error))
        #expect(
            message.contains(
                extra
                    ? "61 updates were applied, 60 critical sections ran"
                    : "59 updates were applied, 60 critical sections ran"),
            "\(message)")
    }

    @Test("the dictionary's entries are checked as well as its update count")
    func dictionaryEntriesAreChecked() {
        var resource = SharedResource(kind: .dictionary, criticalRounds: 0)
        for _ in 0..<100 { resource.update() }
        #expect(resource.inconsistency(expected: 100) == nil)
        #expect(resource.inconsistency(expected: 101) == "100 updates were applied, 101 critical sections ran")
    }

    @Test("bad queue-vs-lock parameters are refused with a reason naming the workload")
    func badParameters() {
        let good = QueueVsLock.parameters(.pthreadMutex, ("1", .counter, 0, 0))
        let variants: [[Parameter]] = [
            good.map { $0.name == "guard" ? Parameter("guard", "futex") : $0 },
            good.map { $0.name == "threads" ? Parameter("threads", "0") : $0 },
            good.map { $0.name == "threads" ? Parameter("threads", "3xcpus") : $0 },
            good.map { $0.name == "resource" ? Parameter("resource", "tree") : $0 },
            good.map { $0.name == "critical" ? Parameter("critical", "long") : $0 },
            good.filter { $0.name != "outside" },
        ]
        for parameters in variants {
            let benchmarkCase = BenchmarkCase(
                workload: "queue-vs-lock", backend: BenchmarkCase.noBackend, parameters: parameters, allocator: .system)
            do {
                _ = try QueueVsLock().prepare(benchmarkCase, backend: nil)
                Issue.record("\(benchmarkCase.id) was accepted")
            } catch let error as WorkloadError {
                guard case .badParameter(let why) = error else {
                    Issue.record("\(benchmarkCase.id): \(error)"); continue
                }
                #expect(why.contains("queue-vs-lock"), "\(why)")
            } catch {
                Issue.record("\(benchmarkCase.id): \(error)")
            }
        }
    }

    @Test("locks and the actor run once under \"none\"; the semaphore and queues run on every backend")
    func whichSetsUseBackends() {
        for parameters in QueueVsLock().parameterSets(for: .full) {
            let kind = QueueVsLock.Guard(rawValue: parameters[0].value)!
            #expect(QueueVsLock().usesBackend(for: parameters) == kind.fromBackend)
        }
    }
}

import Backends
import ConformanceKit
import PThreadPrimitives
import RuntimeKit
import Testing

// The conformance kit's scenarios on every backend: what a runtime author's own tests run on
// their runtime (Examples/Tests/ExamplesTests).

@Suite("conformance: serial queues, async, apply, function forms, groups, semaphores, shutdown")
struct KitConformance {
    @Test(arguments: conformanceBackends, Conformance.scenarios.filter { $0.family != .blocking })
    func scenario(backend: Backend, scenario: ConformanceScenario) async throws {
        try skipWhereTheBackendCannotRunHere(backend)
        try await scenario.check(backend.runtime, as: backend.id)
    }
}

/// Serialized: libdispatch and libdispatch-c share the process's one libdispatch pool, so a
/// scenario that blocks every worker of one would also block the other's, run alongside.
@Suite("blocking with every worker blocked or busy: no deadlock", .serialized)
struct BlockingConformance {
    @Test(arguments: conformanceBackends, Conformance.scenarios(in: .blocking))
    func scenario(backend: Backend, scenario: ConformanceScenario) async throws {
        try skipWhereTheBackendCannotRunHere(backend)
        try await scenario.check(backend.runtime, as: backend.id)
    }
}

@Suite("the conformance kit itself")
struct ConformanceKitTests {
    @Test("every family has scenarios, and no two scenarios share a name")
    func scenariosAreNamedOnce() {
        for family in ConformanceFamily.allCases {
            #expect(!Conformance.scenarios(in: family).isEmpty, "\(family)")
        }
        let names = Conformance.scenarios.map(\.name)
        #expect(Set(names).count == names.count, "\(names.count - Set(names).count) names repeat")
    }

    @Test(
        """
        the blocking family has every blocking operation: sync, nested sync, apply, group and semaphore waits, \
        a wait the runtime cannot see
        """)
    func blockingFamilyCoversEveryWait() {
        let required = Set(Conformance.scenarios(in: .blocking).flatMap(\.requires))
        #expect(required.isSuperset(of: [.blockingWaitInsideWork, .waitWithEveryWorkerWaiting, .waitUnseenByRuntime]))
        #expect(Conformance.scenarios(in: .blocking).count == 14)
    }

    @Test("the kit fails a runtime that runs each block twice, naming the scenario and the runtime")
    func failsARuntimeThatRunsBlocksTwice() async throws {
        let scenario = Conformance.scenarios(in: .async)[0]
        try await withKnownIssue {
            try await scenario.check(RunsTwice.self)
        } matching: { issue in
            let message = issue.error.map { "\($0)" } ?? ""
            return message.contains("'\(scenario.name)' on runs-twice") && message.contains("did not run exactly once")
        }
    }
}

/// A broken runtime for the kit's own test: it runs each block twice, at once, on the caller.
private final class RunsTwice: PoolBackedRuntime, @unchecked Sendable {
    static let id = "runs-twice"
    static let summary = "runs each block twice"
    let workers = 1

    init(workers: Int) {}

    func async(_ work: @escaping @Sendable () -> Void) {
        work()
        work()
    }

    func async(group: MutexGroup<Strand>, _ work: @escaping @Sendable () -> Void) {
        group.enter()
        async(work)
        group.leave()
    }

    func shutdown() {}
}

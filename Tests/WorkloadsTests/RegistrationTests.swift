import Backends
import Harness
import PThreadPrimitives
import Results
import RuntimeKit
import Testing
import Workloads

/// Another package's runtimes and workloads join the registries through `register`; a collision
/// or a name a case id cannot carry is refused, naming both sides, and leaves the registry as it
/// was. (Only refusals here: a registration that succeeds would add a backend to every other
/// test of this process. Examples/ registers for real, and .ci/run runs its tests.)
@Suite("registries: another package's runtimes and workloads")
struct RegistrationTests {
    final class Impostor: PoolBackedRuntime, @unchecked Sendable {
        static let id = "fifo-dispatch"
        static let summary = "a runtime that takes a built-in one's id"
        let workers = 1
        init(workers: Int) {}
        func async(_ work: @escaping @Sendable () -> Void) { work() }
        func shutdown() {}
    }

    final class Slashed: PoolBackedRuntime, @unchecked Sendable {
        static let id = "my/pool"
        static let summary = "an id with a case id's separator"
        let workers = 1
        init(workers: Int) {}
        func async(_ work: @escaping @Sendable () -> Void) { work() }
        func shutdown() {}
    }

    struct Named: Workload {
        let name: String
        var sets: [[Parameter]] = [[Parameter("size", "1")]]
        let summary = "a test workload"
        let operation = "nothing"
        let usesBackend = false
        func parameterSets(for suite: Suite) -> [[Parameter]] { sets }
        func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
            throw WorkloadError.notApplicable("never run")
        }
    }

    @Test("a runtime with a built-in one's id is refused, naming both types")
    func duplicateRuntime() {
        #expect(
            throws: RegistrationError.duplicate(id: "fifo-dispatch", type: "\(Impostor.self)", other: "FIFODispatch")
        ) {
            try Backends.register([Impostor.self])
        }
        #expect(Backends.ids == Backends.builtIn.map(\.id))
    }

    @Test("an id a case id cannot carry is refused with the reason")
    func badRuntimeID() throws {
        do {
            try Backends.register([Slashed.self])
            Issue.record("my/pool was registered")
        } catch {
            #expect(error.description.contains("'my/pool'") && error.description.contains("'/'"), "\(error)")
        }
        #expect(RegistrationError.problem(withID: "none", reservingNone: true) != nil)
        #expect(RegistrationError.problem(withID: "condition-pool", reservingNone: true) == nil)
    }

    @Test("a workload with a built-in one's name, a bad name, or parameters a case id cannot carry is refused")
    func badWorkloads() {
        #expect(throws: RegistrationError.duplicate(id: "spin", type: "\(Named.self)", other: "Spin")) {
            try Workloads.register([Named(name: "spin")])
        }
        #expect(throws: RegistrationError.self) { try Workloads.register([Named(name: "")]) }
        for sets in [
            [[Parameter("size", "1,2")]], [[Parameter("", "1")]], [[Parameter("size", "1"), Parameter("size", "2")]],
        ] {
            #expect(throws: RegistrationError.self, "\(sets)") {
                try Workloads.register([Named(name: "my-cache", sets: sets)])
            }
        }
        #expect(Workloads.all.count == Workloads.builtIn.count)
    }

    @Test("every built-in workload's parameter sets pass the check registration applies")
    func builtInParametersPass() {
        for workload in Workloads.builtIn {
            for suite in Suite.allCases {
                for parameters in workload.parameterSets(for: suite) {
                    #expect(Workloads.problem(with: parameters) == nil, "\(workload.name) \(suite): \(parameters)")
                }
            }
        }
    }
}

import Backends
import CaseCatalogue
import Claims
import Fidelity
import Harness
import Results
import Testing
import Workloads

/// Whatever cites a case names one the workloads really generate: a renamed workload, parameter
/// or value fails here (or does not compile), instead of leaving a claim inconclusive or a
/// fidelity row without its suite case.
@Suite("case catalogue: every cited case is one the workloads generate")
struct CatalogueTests {
    static func cases(_ suite: Suite) throws -> [BenchmarkCase] {
        try RunPlan(
            workloads: Workloads.all, suite: suite, backends: Backends.all, allocators: [.system], filter: nil,
            repetitions: 1
        ).cases
    }

    @Test("the catalogue's backend names are the registered backends' ids, in order")
    func backendNames() {
        #expect(BackendName.builtIn.map(\.rawValue) == Backends.ids)
        #expect(BackendName.none.rawValue == BenchmarkCase.noBackend)
    }

    @Test("every case a claim reads is in the quick suite (the claims say so when it is missing)")
    func claimsCiteQuickCases() throws {
        let quick = try Self.cases(.quick)
        for claim in Claim.all {
            #expect(!claim.cited.isEmpty, "\(claim.id) cites no case")
            for spec in claim.cited {
                #expect(
                    quick.contains(where: spec.matches),
                    "\(claim.id) cites \(spec), which the quick suite does not generate")
            }
        }
    }

    /// Not necessarily of the same suite: `bench fidelity` runs each pair's two cases itself (the
    /// smoke suite's semaphore reference stands beside the quick suite's uncontended semaphore).
    @Test("every fidelity pair's suite case is exactly (by id) a case some suite generates")
    func fidelityPairsCiteGeneratedCases() throws {
        let generated = Set(try Suite.allCases.flatMap { try Self.cases($0) }.map(\.id))
        for suite in Suite.allCases {
            for pair in FidelityPairs.pairs(in: try Self.cases(suite)) {
                let known = generated.contains(pair.suiteCase.id)
                #expect(known, "\(pair.directCase.id) stands beside \(pair.suiteCase.id), which no suite generates")
            }
        }
    }

    @Test("the figures the report and claims rank by are figures a workload reports")
    func figures() {
        #expect(Workloads.figures.contains { $0.name == FigureName.residentBytesPerUnit.rawValue })
    }

    @Test("a spec matches its own case and the workload's case with more parameters, and no other")
    func matching() throws {
        let spec = CaseSpec.spawn(.outside, on: .fifoDispatch)
        #expect(spec.matches(spec.benchmarkCase(allocator: .jemalloc)))
        let quick = try Self.cases(.quick)
        #expect(quick.filter(spec.matches).map(\.id) == ["spawn/fifo-dispatch/pattern=outside/system"])
        #expect(!CaseSpec.spawn(.outside, on: .libdispatch).matches(spec.benchmarkCase(allocator: .system)))
    }
}

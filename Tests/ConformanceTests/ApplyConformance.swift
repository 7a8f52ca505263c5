import Backends
import RuntimeKit
import Synchronization
import Testing

/// One (iterations, stride) combination from the matrix.
struct ApplyCase: Sendable, CustomStringConvertible {
    let iterations: Int
    let stride: StridePolicy

    static let all: [ApplyCase] = [0, 1, 1_000_003].flatMap { n in
        [StridePolicy.fixed(1), .fixed(7), .fixed(max(1, n)), .automatic].map { ApplyCase(iterations: n, stride: $0) }
    }

    var description: String { "\(iterations) iterations, stride \(stride)" }
}

@Suite("apply: every index once, any stride, nested")
struct ApplyConformance {
    @Test("apply runs every index exactly once", arguments: conformanceBackends, ApplyCase.all)
    func everyIndexOnce(backend: Backend, loop: ApplyCase) async throws {
        try await runScenario("apply \(loop)", on: backend) { try everyIndexOnce(backend.runtime, loop) }
    }

    @Test("nested apply: 32 × 32 × 32 increments reach 32,768", arguments: conformanceBackends)
    func nestedApply(backend: Backend) async throws {
        try await runScenario("nested apply", on: backend) { try nestedApply(backend.runtime) }
    }

    private func everyIndexOnce<R: ConcurrencyRuntime>(_ type: R.Type, _ loop: ApplyCase) throws {
        try withRuntime(type) { runtime in
            let ledger = RunLedger(count: loop.iterations)
            runtime.apply(iterations: loop.iterations, stride: loop.stride) { ledger.record($0) }
            try require(ledger.mistakes() == nil, ledger.mistakes() ?? "")
        }
    }

    private func nestedApply<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let total = Atomic<Int>(0)
            runtime.apply(iterations: 32, stride: .fixed(1)) { _ in
                runtime.apply(iterations: 32, stride: .fixed(1)) { _ in
                    runtime.apply(iterations: 32, stride: .fixed(1)) { _ in
                        total.wrappingAdd(1, ordering: .relaxed)
                    }
                }
            }
            let reached = total.load(ordering: .relaxed)
            try require(reached == 32_768, "nested apply reached \(reached), not 32,768")
        }
    }
}

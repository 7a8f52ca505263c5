import ConditionPool
import ConformanceKit
import Testing

/// RuntimeBench's conformance kit on the outside runtime: every scenario the package's own
/// backends pass, including each blocking operation with every worker blocked or busy. The
/// scenarios that need what ConditionPool declares unsupported are skipped with its reason.
@Suite("ConditionPool: the conformance kit")
struct ConditionPoolConformanceTests {
    @Test(arguments: Conformance.scenarios)
    func conformance(_ scenario: ConformanceScenario) async throws {
        try await scenario.check(ConditionPool.self)
    }
}

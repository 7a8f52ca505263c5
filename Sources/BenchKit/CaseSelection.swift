import ArgumentParser
import Backends
import Harness
import Results
import Workloads

/// Which cases to run: `bench run` and `bench ab` select them the same way.
struct CaseSelection: ParsableArguments {
    @Option(help: "How much to run: \(Suite.allCases.map(\.rawValue).joined(separator: ", ")).")
    var suite: String = Suite.quick.rawValue

    @Option(
        help: "Only cases whose id matches this regular expression (ids look like workload/backend/params/allocator).")
    var filter: String?

    @Option(name: .customLong("workload"), help: "Only this workload (repeatable). `bench list` shows them.")
    var workloads: [String] = []

    @Option(name: .customLong("backend"), help: "Only this backend (repeatable).")
    var backends: [String] = []

    @Option(
        name: .customLong("allocator"),
        help: """
            Only this allocator (repeatable): system, jemalloc. Default: the system allocator alone in \
            the quick suite, both in the others.
            """)
    var allocators: [String] = []

    var chosenSuite: Suite { Suite(rawValue: suite) ?? .quick }

    func validate() throws {
        guard Suite(rawValue: suite) != nil else {
            throw ValidationError(
                "unknown suite '\(suite)'; valid: \(Suite.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // Every name and the filter, checked here so a mistake is reported with this command's usage.
        do { _ = try plan(repetitions: 1) } catch { throw ValidationError(error.description) }
    }

    /// The selected cases with `repetitions` each; every name checked first.
    func plan(repetitions: Int) throws(PlanError) -> RunPlan {
        try RunPlan(
            workloads: try RunPlan.select(workloads, from: Workloads.all, kind: "workload") { $0.name },
            suite: chosenSuite,
            backends: try RunPlan.select(backends, from: Backends.all, kind: "backend") { $0.id },
            allocators: allocators.isEmpty
                ? chosenSuite.defaultAllocators
                : try RunPlan.select(allocators, from: Allocator.allCases, kind: "allocator") { $0.rawValue },
            filter: filter, repetitions: repetitions)
    }
}

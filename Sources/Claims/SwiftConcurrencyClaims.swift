import CaseCatalogue

/// Statements about cost in Swift's own documents, quoted exactly, each with where it stands and
/// the cases that test it. The Swift Programming Language's Concurrency chapter makes no claim of
/// cost to test (it says what `await` and tasks mean, not what they cost), and SE-0417's
/// "avoid hopping and context switches" needs a case with and without a preference for the same
/// work, which the suite does not have yet: both are named in Benchmarks/README.md.
public enum SwiftConcurrencyClaims {
    public static let all: [Claim] = [
        .faster(
            id: "child-tasks-cheaper-than-unstructured", layer: .concurrency,
            statement: "It also makes creating the child task substantially more efficient.",
            conditions: "SE-0304 (Structured concurrency), § Child tasks. Swift's default executors: an empty "
                + "task group child, added and awaited, against an empty unstructured `Task { }` and its value "
                + "(swift-async)",
            claimed: [
                Side(
                    .swiftAsync(.taskGroupChild, on: .swiftConcurrency, [(.body, "0ns")]), label: "task group child")
            ],
            than: Side(.swiftAsync(.task, on: .swiftConcurrency), label: "unstructured task")),
        .faster(
            id: "shared-executor-cheaper-switching", layer: .concurrency,
            statement: "configuring them to use the same executor may decrease the runtime costs of switching "
                + "between them.",
            conditions: "SE-0392 (Custom Actor Executors), § Motivation. Two actors calling each other in turn on "
                + "fifo-dispatch's serial executors: both on one executor against each on its own (swift-async "
                + "actor-hop-shared, actor-hop)",
            claimed: [Side(.swiftAsync(.actorHopShared, on: .fifoDispatch), label: "one shared executor")],
            than: Side(.swiftAsync(.actorHop, on: .fifoDispatch), label: "an executor each")),
    ]
}

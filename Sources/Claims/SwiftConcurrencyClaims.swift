import CaseCatalogue

/// Statements about cost in Swift's own documents, quoted exactly, each with where it stands and
/// the cases that test it. The Swift Programming Language's Concurrency chapter makes no claim of
/// cost to test: it says what `await` and tasks mean, not what they cost.
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
        .faster(
            id: "task-executor-preference-fewer-switches", layer: .concurrency,
            statement: "provides a new flexible mechanism for developers to tune their their applications and avoid "
                + "potentially un-necessary context switching when possible.",
            conditions: "SE-0417 (Task Executor Preference), § Motivation (\"their their\" as written there). An "
                + "actor on fifo-dispatch's serial executor calling a nonisolated async function: from a task "
                + "preferring fifo-dispatch's task executor against one with no preference, whose calls run on "
                + "Swift's cooperative pool (swift-async nonisolated-call, nonisolated-call-unpreferred)",
            claimed: [Side(.swiftAsync(.nonisolatedCall, on: .fifoDispatch), label: "preferring the pool")],
            than: Side(.swiftAsync(.nonisolatedCallUnpreferred, on: .fifoDispatch), label: "no preference")),
    ]
}

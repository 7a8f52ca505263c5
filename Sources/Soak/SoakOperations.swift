/// What a soak ran, by kind. Every task counted here was also checked to have run exactly once
/// (or, for `sync` and `apply`, to have returned having seen everything before it).
public struct SoakOperations: Codable, Sendable, Equatable {
    /// Blocks submitted with `async`, each signalling a semaphore the soak thread waits on.
    public var asyncBlocks = 0
    /// Blocks submitted into a group, including those a group member submits into its own group.
    public var groupBlocks = 0
    /// `enter` / `leave` pairs around plain `async` blocks, with a `notify` waiting for them.
    public var enterLeavePairs = 0
    /// `notify` blocks run on a serial queue once their group emptied.
    public var notifications = 0
    /// Blocks run on serial queues, each checking that it ran in submission order.
    public var serialBlocks = 0
    /// `sync` calls on serial queues, each checking it saw every block submitted before it.
    public var syncCalls = 0
    /// `wait` / `signal` pairs of a semaphore used as a lock by concurrent blocks.
    public var semaphoreLockPairs = 0
    /// Indices of `apply` loops.
    public var applyIterations = 0
    /// `sync` onto one queue inside a `sync` onto another, from blocks on as many queues at once.
    public var nestedSyncs = 0
    /// Indices of `apply` loops called while every worker was busy with a block waiting for them.
    public var busyPoolApplyIterations = 0
    /// Serial queues, semaphores and groups created (and released) by the rounds.
    public var objectsCreated = 0

    public init() {}

    /// Every operation above.
    public var total: Int {
        asyncBlocks + groupBlocks + enterLeavePairs + notifications + serialBlocks + syncCalls
            + semaphoreLockPairs + applyIterations + nestedSyncs + busyPoolApplyIterations + objectsCreated
    }

    public static func += (lhs: inout SoakOperations, rhs: SoakOperations) {
        lhs.asyncBlocks += rhs.asyncBlocks
        lhs.groupBlocks += rhs.groupBlocks
        lhs.enterLeavePairs += rhs.enterLeavePairs
        lhs.notifications += rhs.notifications
        lhs.serialBlocks += rhs.serialBlocks
        lhs.syncCalls += rhs.syncCalls
        lhs.semaphoreLockPairs += rhs.semaphoreLockPairs
        lhs.applyIterations += rhs.applyIterations
        lhs.nestedSyncs += rhs.nestedSyncs
        lhs.busyPoolApplyIterations += rhs.busyPoolApplyIterations
        lhs.objectsCreated += rhs.objectsCreated
    }

    /// Kind and count, in the order above, for tables.
    public var byKind: [(kind: String, count: Int)] {
        [
            ("async", asyncBlocks), ("group", groupBlocks), ("enter/leave", enterLeavePairs), ("notify", notifications),
            ("serial", serialBlocks), ("sync", syncCalls), ("semaphore lock", semaphoreLockPairs),
            ("apply", applyIterations), ("nested sync", nestedSyncs), ("busy-pool apply", busyPoolApplyIterations),
            ("objects", objectsCreated),
        ]
    }
}

/// A case parameter's name, as case ids spell it (`guard=queue-sync`).
public struct ParameterName: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (lhs: ParameterName, rhs: ParameterName) -> Bool { lhs.rawValue < rhs.rawValue }

    /// queue-vs-lock: what guards the shared resource (`QueueVsLockGuard`).
    public static let `guard` = ParameterName("guard")
    /// queue-vs-lock: how many threads contend (`ThreadCount`).
    public static let threads = ParameterName("threads")
    /// queue-vs-lock: what is guarded (a counter, a dictionary).
    public static let resource = ParameterName("resource")
    /// queue-vs-lock: the work inside each critical section.
    public static let critical = ParameterName("critical")
    /// queue-vs-lock: the work between a thread's sections.
    public static let outside = ParameterName("outside")
    /// swift-async: how many tasks call one actor at once (`ThreadCount`: "2", "2xcpus").
    public static let tasks = ParameterName("tasks")
    /// spawn, semaphore, group: the pattern of the workload (`SpawnPattern`, ...).
    public static let pattern = ParameterName("pattern")
    /// semaphore: whose semaphore (`SemaphoreKind`).
    public static let semaphore = ParameterName("semaphore")
    /// apply-stride, apply-serial, direct, swift-async: the cost of one loop iteration or child.
    public static let body = ParameterName("body")
    /// apply-stride, direct: iterations per piece ("auto" or a number).
    public static let stride = ParameterName("stride")
    /// apply-stride, apply-serial, direct: iterations of one loop.
    public static let iterations = ParameterName("iterations")
    /// fork-join: the fib(n) problem's n.
    public static let fib = ParameterName("fib")
    /// fork-join: how a problem splits (task, closure, group, async-let).
    public static let form = ParameterName("form")
    /// fork-join: the size at and below which a subproblem is solved sequentially.
    public static let cutoff = ParameterName("cutoff")
    /// fork-join: when a join makes its right half stealable (eager, lazy).
    public static let split = ParameterName("split")
    /// footprint: what waits (`FootprintUnit`).
    public static let unit = ParameterName("unit")
    /// direct: which operation is written directly (`DirectOperation`).
    public static let operation = ParameterName("operation")
}

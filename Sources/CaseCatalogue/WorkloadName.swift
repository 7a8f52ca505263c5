/// A workload's name as cases, results files and reports spell it. The built-in workloads' names
/// are spelled here once: the workloads take their names from these, and whatever cites a case
/// (claims, fidelity pairs, rankings, charts) cites these, so a rename is one edit.
public struct WorkloadName: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let spin = WorkloadName("spin")
    public static let mutexUncontended = WorkloadName("mutex-uncontended")
    public static let mallocFree = WorkloadName("malloc-free")
    public static let objectAlloc = WorkloadName("object-alloc")
    public static let forkJoin = WorkloadName("fork-join")
    public static let applyStride = WorkloadName("apply-stride")
    public static let applySerial = WorkloadName("apply-serial")
    public static let spawn = WorkloadName("spawn")
    public static let threadSpawn = WorkloadName("thread-spawn")
    public static let queueVsLock = WorkloadName("queue-vs-lock")
    public static let footprint = WorkloadName("footprint")
    public static let semaphore = WorkloadName("semaphore")
    public static let group = WorkloadName("group")
    public static let swiftAsync = WorkloadName("swift-async")
    public static let direct = WorkloadName("direct")
    /// Test builds only (the FaultInjection trait).
    public static let fault = WorkloadName("fault")
}

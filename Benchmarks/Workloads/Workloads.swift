import Harness
import Results

/// Every workload the suite knows, in report order. A new workload is one file in this folder
/// and one line here.
public enum Workloads {
    public static let all: [any Workload] = [
        Spin(),
        MutexUncontended(),
        MallocFree(),
        ObjectAlloc(),
        ForkJoin(),
        ApplyStride(),
        ApplySerial(),
        Spawn(),
        ThreadSpawn(),
        QueueVsLock(),
        Footprint(),
        Semaphores(),
        Groups(),
        Direct(),
    ] + (FaultInjection.enabled ? [FaultInjection()] : [])

    public static func named(_ name: String) -> (any Workload)? { all.first { $0.name == name } }

    /// Every figure a workload measures itself, described (`Workload.figures`).
    public static var figures: [Metric] { all.flatMap(\.figures) }
}

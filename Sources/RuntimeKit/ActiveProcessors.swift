#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The number of CPUs this process may run on now: what `workers: 0` resolves to. Its affinity
/// mask and cgroup quota count (`UsableCPUs`), not only the CPUs online: a pool pinned to one
/// CPU with `--cpus 0` gets one worker, as Rust's available_parallelism would say.
public var activeProcessorCount: Int {
    UsableCPUs.ofThisProcess().count
}

/// Resolves a requested worker count: 0 means one per active CPU.
/// - Precondition: `requested >= 0`.
public func resolvedWorkerCount(_ requested: Int) -> Int {
    precondition(requested >= 0, "workers must be 0 (one per active CPU) or positive, got \(requested)")
    return requested == 0 ? activeProcessorCount : requested
}

/// What a metric's changes mean, which decides its default thresholds and whether two machines'
/// figures can be compared at all.
public enum MetricKind: String, Sendable, Codable, CaseIterable {
    /// Wall time per operation (the samples' ns/op): loose defaults, meaningless across machines.
    case time
    /// CPU time per operation over all the process's threads (task-clock, user and system CPU
    /// time, cycles): what a wait that spins instead of sleeping costs. Not compared unless a
    /// thresholds file turns it on: for a single thread it repeats the wall time, and each extra
    /// metric compared makes the correction for the number of comparisons stricter.
    case cpu
    /// Counts that do not depend on timing: allocations and bytes allocated per operation, and
    /// instructions where a PMU exists. Tight defaults; comparable across machines.
    case count
    /// Events whose number follows the scheduling and so the timing (context switches, migrations,
    /// page faults, system calls, cache and branch misses): the loosest defaults, compared only on
    /// the same machine, and not at all unless a thresholds file turns them on.
    case event

    /// Whether figures from two different machines say anything about a code change.
    public var dependsOnMachine: Bool { self != .count }
}

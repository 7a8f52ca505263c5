import CMachineProbe
import Results
import RuntimeKit

/// Probes how far apart two CPUs are right now (`CPUHop`), in a child, around its samples.
enum CPUHopProbe {
    /// Round trips timed per probe: about 0.5 ms at 25 ns a hop, 4 ms at 200.
    static let roundTrips: Int32 = 10_000
    /// A probe stops after this long, on what it timed: a CPU that another thread holds would
    /// otherwise hold up every round trip by a time slice.
    static let budget: Duration = .milliseconds(20)

    /// Nanoseconds per hop between the first two of `cpus`, or nil with fewer than two CPUs, when
    /// a thread cannot be pinned, or when no batch of round trips ended within `budget`.
    static func hop(between cpus: [Int], budget: Duration = Self.budget) -> (cpus: [Int], nanoseconds: Double)? {
        guard cpus.count >= 2 else { return nil }
        let pair = Array(cpus.prefix(2))
        let nanoseconds = rb_cpu_hop_nanoseconds(
            Int32(pair[0]), Int32(pair[1]), roundTrips, budget.nanosecondsSaturating)
        return nanoseconds > 0 ? (pair, nanoseconds) : nil
    }

    /// The probe before the samples and the one after them as one `CPUHop`, or nil when either
    /// could not be made.
    static func hop(before: (cpus: [Int], nanoseconds: Double)?, after: (cpus: [Int], nanoseconds: Double)?)
        -> CPUHop?
    {
        guard let before, let after, before.cpus == after.cpus else { return nil }
        return CPUHop(cpus: before.cpus, beforeNanoseconds: before.nanoseconds, afterNanoseconds: after.nanoseconds)
    }
}

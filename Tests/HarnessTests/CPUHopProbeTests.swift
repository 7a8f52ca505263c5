import Results
import Testing

@testable import Harness

/// The probe of how far apart two CPUs are: a positive time between two CPUs this process may use,
/// nothing with one CPU or with a CPU it may not use (the answering thread cannot pin itself, and
/// the timing thread must not wait for it).
@Suite("CPUHopProbe: a cache line's trip between two CPUs")
struct CPUHopProbeTests {
    @Test("two usable CPUs: a positive, finite time per hop; one CPU or a CPU out of reach: none")
    func probe() throws {
        let cpus = CPUAffinity.current()
        #expect(CPUHopProbe.hop(between: Array(cpus.prefix(1))) == nil)
        // CPU numbers the kernel cannot have: pinning fails on both sides and the probe says so.
        #expect(CPUHopProbe.hop(between: [cpus[0], 100_000]) == nil)
        #expect(CPUHopProbe.hop(between: [100_000, cpus[0]]) == nil)
        guard cpus.count >= 2 else { return }
        // A probe finds no batch within its budget only while other threads hold both CPUs for
        // all of it, and the tests beside this one can for seconds on 2 cores (ten tries of the
        // children's 20 ms all came back empty once): here the budget is 20 seconds.
        let hop = try #require(CPUHopProbe.hop(between: cpus, budget: .seconds(20)))
        #expect(hop.cpus == Array(cpus.prefix(2)))
        // Loose bounds: a busy 2-core machine may preempt either thread mid-probe.
        #expect(hop.nanoseconds > 0 && hop.nanoseconds < 100_000_000, "\(hop.nanoseconds)")
        let record = try #require(CPUHopProbe.hop(before: hop, after: hop))
        #expect(record.nanoseconds == hop.nanoseconds && record.cpus == hop.cpus)
        #expect(CPUHopProbe.hop(before: hop, after: nil) == nil)
    }
}

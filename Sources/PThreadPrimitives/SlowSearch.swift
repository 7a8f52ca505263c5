import CSpinHint

/// An idle worker's slow search, the part both pools share (StealingRuntime/README.md and
/// FIFODispatch/README.md, "Searching slowly"): after its quick looks, a worker whose CPU nobody
/// else wanted keeps looking, a look every few pauses, for a while by the clock, so that a job
/// coming back from a thread outside the pool finds it awake instead of paying a wake-up across
/// vCPUs. A yield every few looks lends the CPU to whoever wants it; one that ran another thread
/// (`RuntimeEvents.yieldCPULent`) ends the search, since spinning on would take that thread's CPU.
public enum SlowSearch {
    /// Calls `look` every `pausesPerLook` pauses until it returns true (then returns true), until a
    /// yield (one every `looksPerYield` looks) runs another thread, or until `nanoseconds` have
    /// passed (then false). A time, not a count of looks: a `pause` takes 13 ns on the Intel VMs
    /// and 25–29 ns on the AMD ones.
    @inlinable
    public static func run(for nanoseconds: Int64, pausesPerLook: Int, looksPerYield: Int, _ look: () -> Bool) -> Bool {
        let end = MonotonicInstant.now.nanoseconds + nanoseconds
        var looks = 0
        repeat {
            for _ in 0..<pausesPerLook { rb_spin_pause() }
            if look() { return true }
            looks += 1
            if looks % looksPerYield == 0, RuntimeEvents.yieldCPULent() { return false }
        } while MonotonicInstant.now.nanoseconds < end
        return false
    }
}

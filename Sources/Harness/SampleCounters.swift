import Results
/// Counters the sampler reads around every sample. Reading must not allocate: the jemalloc
/// counters run on the measuring thread, and an allocation made while reading would be counted
/// as the workload's (Sources/Counters/README.md, "Accuracy").
public protocol SampleCounters: AnyObject {
    /// The metrics `read(into:)` writes, in slot order.
    var names: [String] { get }
    /// Writes the current cumulative value of every metric into `slots` (count == names.count);
    /// NaN where a value could not be read this time.
    func read(into slots: UnsafeMutableBufferPointer<Double>)
    /// Metric → why it cannot be read in this process (no PMU, no permission, not loaded).
    var unavailable: [String: String] { get }
}

/// One process's figure: the one value per process that every interval, mode, ranking and gate
/// takes (processes are the independent observations; its samples are not).
extension CaseRecord {
    /// Nanoseconds per operation for the whole process: the median of its samples, which one
    /// interrupted sample does not move; but when its samples switched between modes as it ran
    /// (`ModeSwitching.modes(ofSamples:)`: a fast and a slow group of at least two samples each),
    /// their mean. Each sample runs the same batch of operations, so the mean is the process's
    /// time over its operations, and mixes the modes by the time spent in each; a median keeps
    /// only the mode that held more samples. libdispatch's contended `sync` read 27 ns a
    /// section by its median sample in a process whose samples also held 2.0 and 3.3 µs,
    /// and 601 ns over its whole time. Nil without samples.
    public var processNanoseconds: Double? {
        let samples = nanosecondsPerOperation
        guard !samples.isEmpty else { return nil }
        if ModeSwitching.modes(ofSamples: samples) != nil {
            return samples.reduce(0, +) / Double(samples.count)
        }
        return SampleStatistics.percentile(samples.sorted(), 0.5)
    }
}

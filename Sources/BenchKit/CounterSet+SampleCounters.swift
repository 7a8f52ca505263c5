import Counters
import Harness
import Results

/// The child hands its counters to the sampler through Harness's allocation-free protocol; the
/// CLI is where the two modules meet, so neither depends on the other.
extension CounterSet: SampleCounters {}

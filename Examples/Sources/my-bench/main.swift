import BenchKit
import CaseSummaryTSV
import ConditionPool
import ConditionPoolCounters
import LRUCacheWorkload

// Every command of `bench` (run, report, compare, check, ab, profile, soak, history, fidelity,
// ...), with this package's runtime, workload, counter and output format beside the built-in ones.
Bench.main(
    runtimes: [ConditionPool.self], workloads: [LRUCache()], counters: [ConditionPoolCounters.self],
    formats: [CaseSummaryTSV.self])

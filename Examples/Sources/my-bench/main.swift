import BenchKit
import ConditionPool
import LRUCacheWorkload

// Every command of `bench` (run, report, compare, check, ab, profile, soak, history, fidelity,
// ...), with this package's runtime and workload beside the built-in ones.
Bench.main(runtimes: [ConditionPool.self], workloads: [LRUCache()])

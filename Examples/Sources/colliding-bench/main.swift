import BenchKit
import ConditionPool
import LRUCacheWorkload

// A mistake the binary must refuse as it starts (exit 64, naming both): the same runtime twice.
Bench.main(runtimes: [ConditionPool.self, ConditionPool.self], workloads: [LRUCache()])

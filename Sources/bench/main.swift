import BenchKit

// The suite's own binary: the built-in runtimes and workloads only.
Bench.main(runtimes: [], workloads: [])

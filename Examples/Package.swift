// swift-tools-version: 6.1
import PackageDescription

// How another package benchmarks its own runtime and its own code with RuntimeBench, without a
// fork: a runtime (ConditionPool), a workload of user code (LRUCacheWorkload), a counter of the
// runtime's own events (ConditionPoolCounters), an output format (CaseSummaryTSV), and an
// executable whose whole main is one call, `Bench.main(runtimes:workloads:counters:formats:)`.
// .ci/run builds it, runs its tests and a smoke run of its binary.
let package = Package(
    name: "RuntimeBenchExamples",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RuntimeBench", path: "..")
    ],
    targets: [
        // A fixed pool of threads on one mutex and one condition variable, as an outsider writes it.
        .target(
            name: "ConditionPool",
            dependencies: [
                .product(name: "RuntimeKit", package: "RuntimeBench"),
                .product(name: "PThreadPrimitives", package: "RuntimeBench"),
            ]
        ),
        // User code measured on every runtime: an LRU cache behind a lock against the same cache
        // behind a serial queue.
        .target(
            name: "LRUCacheWorkload",
            dependencies: [
                .product(name: "RuntimeKit", package: "RuntimeBench"),
                .product(name: "Backends", package: "RuntimeBench"),
                .product(name: "Harness", package: "RuntimeBench"),
                .product(name: "Results", package: "RuntimeBench"),
            ]
        ),
        // ConditionPool's own event, counted per operation beside the built-in counters.
        .target(
            name: "ConditionPoolCounters",
            dependencies: [
                "ConditionPool",
                .product(name: "Counters", package: "RuntimeBench"),
                .product(name: "Results", package: "RuntimeBench"),
            ]
        ),
        // An output format of this package's: summary.tsv beside report.md.
        .target(
            name: "CaseSummaryTSV",
            dependencies: [
                .product(name: "Reports", package: "RuntimeBench"),
                .product(name: "Results", package: "RuntimeBench"),
            ]
        ),
        .executableTarget(
            name: "my-bench",
            dependencies: [
                "ConditionPool", "LRUCacheWorkload", "ConditionPoolCounters", "CaseSummaryTSV",
                .product(name: "BenchKit", package: "RuntimeBench"),
            ]
        ),
        // For the tests: registers ConditionPool twice, which must stop it before anything runs.
        .executableTarget(
            name: "colliding-bench",
            dependencies: [
                "ConditionPool", "LRUCacheWorkload",
                .product(name: "BenchKit", package: "RuntimeBench"),
            ]
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "ConditionPool", "LRUCacheWorkload", "my-bench", "colliding-bench",
                .product(name: "ConformanceKit", package: "RuntimeBench"),
                .product(name: "RuntimeKit", package: "RuntimeBench"),
                .product(name: "PThreadPrimitives", package: "RuntimeBench"),
                .product(name: "Backends", package: "RuntimeBench"),
                .product(name: "Harness", package: "RuntimeBench"),
                .product(name: "Results", package: "RuntimeBench"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

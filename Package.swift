// swift-tools-version: 6.1
import PackageDescription

// Module graph (see ARCHITECTURE.md): RuntimeKit is the vocabulary; PThreadPrimitives holds the
// mutex/condition building blocks several backends share; each backend is one module; Backends is
// the registry; `bench` is the CLI. Nothing here needs more than the Swift toolchain: PAPI and
// jemalloc are optional and loaded at run time by later modules.
let package = Package(
    name: "RuntimeBench",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bench", targets: ["bench"]),
        // For another package's own `bench`: its main is `Bench.main(runtimes:workloads:)`
        // (BenchKit), its runtimes conform to `ConcurrencyRuntime` (RuntimeKit), its workloads to
        // `Workload` (Harness, over Results' cases and Backends' `Backend`). Examples/ is one.
        .library(name: "BenchKit", targets: ["BenchKit"]),
        .library(name: "RuntimeKit", targets: ["RuntimeKit"]),
        .library(name: "Backends", targets: ["Backends"]),
        .library(name: "Harness", targets: ["Harness"]),
        .library(name: "PThreadPrimitives", targets: ["PThreadPrimitives"]),
        .library(name: "Results", targets: ["Results"]),
        .library(name: "Counters", targets: ["Counters"]),
        .library(name: "Reports", targets: ["Reports"]),
        // The conformance suite as a test kit: a runtime author's tests call it with their type.
        .library(name: "ConformanceKit", targets: ["ConformanceKit"]),
        // The call counter a child preloads to count allocations, retains and releases on every
        // thread (`--count-allocations`). A library of its own, linked into nothing: in `bench`
        // its malloc would replace the allocator under test in every run.
        .library(name: "RuntimeBenchInterposer", type: .dynamic, targets: ["CInterposer"]),
        // For the tests only: libpapi's entry points with known counts (this VM has no PMU), which
        // bench loads through RUNTIMEBENCH_PAPI_LIBRARY.
        .library(name: "PAPIStandIn", type: .dynamic, targets: ["PAPIStandIn"]),
    ],
    traits: [
        // Test builds only: the hooks that slow real runtime paths by RUNTIMEBENCH_FAULTS, to
        // measure whether the gate finds such regressions (PThreadPrimitives/InjectedFaults.swift).
        .trait(
            name: "FaultInjection", description: "Hooks that slow real runtime paths when RUNTIMEBENCH_FAULTS says so")
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Child processes with deadlines (cancellation kills the child); its Foundation trait is
        // not needed.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2", traits: []),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // Latency percentiles (hand-off, notify) kept by workloads in fixed memory, recorded
        // without allocating on the measured path.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // Backends `nio` and `nio-global`: SwiftNIO's event loops behind the protocol, and NIO as
        // Swift's global executor. Only NIOCore and NIOPosix, the loops and their group.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "CExecutorJob"),
        .target(name: "RuntimeKit", dependencies: ["CExecutorJob"]),
        .target(
            name: "PThreadPrimitives",
            dependencies: [
                "RuntimeKit", "CSpinHint", "CRuntimeEvents", "CBlockCache", "CThreadInfo",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            exclude: ["README.md"]
        ),
        .target(
            name: "PThreadRuntime",
            dependencies: [
                "RuntimeKit", "PThreadPrimitives",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(name: "CSpinHint"),
        .target(name: "CBlockCache"),
        .target(name: "CCurrentWorker"),
        .target(
            name: "StealingRuntime",
            dependencies: [
                "RuntimeKit", "PThreadPrimitives", "CCurrentWorker", "CSpinHint", "CFutex",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            exclude: ["README.md"]
        ),
        .target(name: "CFutex"),
        // Thread ids, names and run states (gettid and prctl are variadic; Glibc lacks pthread_setname_np).
        .target(name: "CThreadInfo"),
        // The probe of how far apart two CPUs are (a cache line's trip), run in each child.
        .target(name: "CMachineProbe"),
        .target(name: "CFIFODispatch"),
        .target(
            name: "FIFODispatch",
            dependencies: ["RuntimeKit", "PThreadPrimitives", "CFIFODispatch", "CExecutorJob", "CFutex", "CSpinHint"],
            exclude: ["README.md"]
        ),
        .target(
            name: "CDispatchShim",
            linkerSettings: [.linkedLibrary("dispatch")]
        ),
        .target(
            name: "SystemRuntimes",
            dependencies: ["RuntimeKit", "PThreadPrimitives", "CDispatchShim"]
        ),
        // SwiftNIO: an event loop group as the pool, a loop as the serial queue (README.md beside it).
        .target(
            name: "NIORuntimes",
            dependencies: [
                "RuntimeKit", "PThreadPrimitives", "CThreadInfo", "CFutex",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["README.md"]
        ),
        .target(
            name: "CPerfEvent",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // Per-thread counts summed when read (static inline: each user keeps its own table).
        .target(name: "CThreadSlots", exclude: ["README.md"]),
        .target(name: "CRuntimeEvents", dependencies: ["CThreadSlots"]),
        .target(
            name: "CInterposer",
            dependencies: ["CThreadSlots"],
            exclude: ["README.md"],
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]
        ),
        .target(
            name: "Counters",
            dependencies: ["CPerfEvent", "CThreadInfo", "Results", "RuntimeKit", "PThreadPrimitives"],
            exclude: ["README.md"]
        ),
        // What a run produced, readable without any runtime: cases, records, results files, the
        // machine, statistics and estimates, how numbers read.
        .target(name: "Results", dependencies: ["RuntimeKit"]),
        .target(name: "ConformanceKit", dependencies: ["RuntimeKit", "PThreadPrimitives"], exclude: ["README.md"]),
        // What a case is, spelled once and linking no runtime: workload, backend, parameter and
        // figure names, the parameters' typed values, and the cases that claims, fidelity pairs
        // and reports cite.
        .target(name: "CaseCatalogue", dependencies: ["Results"]),
        .target(
            name: "Harness",
            dependencies: [
                "Results", "Backends", "RuntimeKit", "CMachineProbe",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),  // FilePath, on Linux
            ]
        ),
        // The regression gate's decisions: thresholds, tests of change, Holm's correction.
        .target(
            name: "Gate",
            dependencies: ["Results"],
            exclude: ["README.md"]
        ),
        // Fidelity: each suite figure beside the same operation written directly against the runtime.
        .target(
            name: "Fidelity",
            dependencies: ["CaseCatalogue", "Results", "Gate"]
        ),
        .target(
            name: "Claims",
            dependencies: ["CaseCatalogue", "Results"]
        ),
        // The soak: every backend under a long mixed load, each task checked to run exactly once.
        .target(
            name: "Soak",
            dependencies: ["Backends", "Harness", "PThreadPrimitives", "Results", "RuntimeKit"]
        ),
        .target(
            name: "CBodyCost",
            path: "Benchmarks/CBodyCost"
        ),
        // The suite's operations written directly in C (pthreads, POSIX semaphores, libdispatch's
        // _f entry points): the `direct` workload's references, and the piece tally apply checks with.
        .target(
            name: "CReferences",
            dependencies: ["CBodyCost"],
            path: "Benchmarks/CReferences",
            exclude: ["README.md"],
            linkerSettings: [.linkedLibrary("dispatch")]
        ),
        .target(
            name: "Workloads",
            dependencies: [
                "Harness", "Backends", "CaseCatalogue", "Results", "RuntimeKit", "CBodyCost", "CReferences",
                "PThreadPrimitives",
                "SystemRuntimes",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Benchmarks/Workloads"
        ),
        // SVG charts without a dependency: the report's stride, scaling and percentile charts.
        .target(name: "Charts"),
        // Where the time goes: a case's child under perf record, its stacks, top frames, flame graph.
        .target(
            name: "Profiling",
            dependencies: ["Harness", "Results", "RuntimeKit", "Charts"]
        ),
        .target(
            name: "Reports",
            dependencies: [
                "CaseCatalogue", "Results", "Claims", "Charts", "Gate", "Fidelity", "PThreadPrimitives", "RuntimeKit",
            ]
        ),
        .target(
            name: "Backends",
            dependencies: [
                "RuntimeKit", "PThreadPrimitives", "PThreadRuntime", "StealingRuntime", "FIFODispatch",
                "SystemRuntimes", "NIORuntimes",
            ]
        ),
        // Every command of `bench`, as a library: this package's executable and another package's
        // both call `Bench.main`.
        .target(
            name: "BenchKit",
            dependencies: [
                "Backends", "RuntimeKit", "Harness", "Reports", "Results", "Workloads", "PThreadPrimitives", "Counters",
                "Claims", "Gate", "Soak", "Fidelity", "Profiling", "Charts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["BuildStamp"]
        ),
        .executableTarget(name: "bench", dependencies: ["BenchKit"]),
        // Stamps `bench` with its version (VERSION) and the commit it was built from.
        .plugin(name: "BuildStamp", capability: .buildTool()),
        .testTarget(
            name: "ClaimsTests",
            dependencies: ["Claims", "Results"]
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "Backends", "ConformanceKit", "PThreadPrimitives", "RuntimeKit", "NIORuntimes", "NIOGlobalProbe",
                "TestSupport", "Harness",
            ]
        ),
        .executableTarget(
            name: "DispatchMainProbe",
            dependencies: ["FIFODispatch", "CDispatchShim"],
            path: "Tests/DispatchMainProbe"
        ),
        // Run by the interposer's test with the interposer preloaded: threads that come and go,
        // every allocation call counted exactly once. C, so that nothing else allocates.
        .executableTarget(
            name: "InterposerProbe",
            path: "Tests/InterposerProbe",
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]
        ),
        .target(name: "PAPIStandIn", path: "Tests/PAPIStandIn"),
        // Run by NIOGlobalProbeTests: nio-global with NIO installed as Swift's global executor
        // before any task exists, which a test process cannot do; the conformance kit on it.
        .executableTarget(
            name: "NIOGlobalProbe",
            dependencies: ["ConformanceKit", "NIORuntimes", "PThreadPrimitives", "RuntimeKit"],
            path: "Tests/NIOGlobalProbe"
        ),
        // Run by RuntimeEventsTests: scenarios whose scheduling events are known, in a process of
        // their own (the counts are the process's totals).
        .executableTarget(
            name: "RuntimeEventsProbe",
            dependencies: ["StealingRuntime", "FIFODispatch", "PThreadPrimitives", "RuntimeKit"],
            path: "Tests/RuntimeEventsProbe"
        ),
        .testTarget(
            name: "DispatchSemanticsTests",
            dependencies: [
                "FIFODispatch", "RuntimeKit", "PThreadPrimitives", "CDispatchShim", "DispatchMainProbe", "CThreadInfo",
                "Harness",
            ],
            exclude: ["LibdispatchSuite/README.md"]
        ),
        .testTarget(
            name: "FIFODispatchTests",
            dependencies: ["FIFODispatch", "PThreadPrimitives", "RuntimeKit", "TestSupport", "CThreadInfo"]
        ),
        .testTarget(
            name: "CountersTests",
            dependencies: [
                "Counters", "CThreadSlots", "InterposerProbe", "PThreadPrimitives", "Results", "RuntimeKit",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "ProfilingTests",
            dependencies: ["Profiling", "Charts"]
        ),
        .testTarget(
            name: "ReportsTests",
            dependencies: ["CaseCatalogue", "Reports", "Charts", "Results", "RuntimeKit", "Counters", "Workloads"]
        ),
        .testTarget(
            name: "GateTests",
            dependencies: ["Gate", "Results", "Harness", "Counters", "RuntimeKit"]
        ),
        // Test helpers shared by test targets: temporary directories removed when the tests end, polling
        // for what another thread does eventually.
        .target(
            name: "TestSupport",
            dependencies: ["Results", "PThreadPrimitives", "RuntimeKit"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "HarnessTests",
            dependencies: ["Harness", "Results", "TestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "bench", "Harness", "Reports", "Results", "Counters", "Gate", "RuntimeKit", "Soak", "TestSupport",
                "Workloads",
            ]
        ),
        .testTarget(
            name: "StealingTests",
            dependencies: ["StealingRuntime", "PThreadPrimitives", "RuntimeKit", "TestSupport"]
        ),
        .testTarget(
            name: "SoakTests",
            dependencies: ["Soak", "Backends", "Harness", "Results", "RuntimeKit", "PThreadPrimitives"]
        ),
        .testTarget(
            name: "RuntimeKitTests",
            dependencies: ["RuntimeKit"]
        ),
        .testTarget(
            name: "PrimitivesTests",
            dependencies: ["RuntimeKit", "PThreadPrimitives", "RuntimeEventsProbe", "TestSupport"]
        ),
        .testTarget(
            name: "WorkloadsTests",
            dependencies: [
                "Workloads", "Harness", "Backends", "CaseCatalogue", "Claims", "Results", "RuntimeKit",
                "PThreadPrimitives", "Fidelity", "CBodyCost",
            ]
        ),
        .testTarget(
            name: "FidelityTests",
            dependencies: ["Fidelity", "Results"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

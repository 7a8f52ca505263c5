import ArgumentParser
import Counters
import Harness
import Results
import Workloads
#if canImport(Glibc)
import Glibc
#endif

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what this machine can measure: counters, allocators, timing noise, with advice.",
        discussion: """
            Prints the environment a run would record, which metrics are available (and why the \
            others are not), whether jemalloc can be preloaded, and a one-second noise estimate: \
            the spread of a fixed spin sampled 50 times. Use it before trusting small differences.
            """
    )

    func run() throws {
        // First, like a child: nothing has created threads yet. System calls too, which a run counts
        // only when asked: whether `--events syscalls` could count them here.
        let counters = CounterSet(events: [SyscallCounters.eventName])
        let environment = BuildStamp.environment()
        print("Machine")
        print(
            "  CPU:               \(environment.cpuModel), \(environment.onlineCPUs) online, "
                + "this process may use \(CPUAffinity.current())")
        print("  kernel:            \(environment.kernel)")
        print("  virtual machine:   \(environment.virtualMachine)")
        print("  CPU governor:      \(environment.cpuGovernor)")
        print(
            "  perf_event_paranoid: \(environment.perfEventParanoid)  "
                + "(running as \(geteuid() == 0 ? "root" : "uid \(geteuid())"))")
        print("  compiler:          \(environment.swiftCompiler)")
        print("  this binary:       \(BuildStamp.description)")

        print("\nCounters (as a child of `bench run` would see them, with the system allocator)")
        for (metric, availability) in counters.availability.sorted(by: { $0.key < $1.key }) {
            let asked =
                metric == SyscallCounters.eventName && availability.isAvailable ? " (with --events syscalls)" : ""
            print("  \(TextTable.pad(metric, to: 32)) \(availability)\(asked)")
        }
        let papi = PAPIProbe()
        print("  \(TextTable.pad("PAPI", to: 32)) \(papi.summary)")

        print("\nAllocators")
        print("  system:   glibc malloc")
        print(
            "  jemalloc: "
                + (JemallocLibrary.locate().map { "available (LD_PRELOAD=\($0))" }
                    ?? "unavailable: libjemalloc.so.2 not found (tools/install-deps.sh installs it)"))
        print("  counting (--count-allocations): " + MeasurementOptions.interposerState)

        print("\nTools")
        switch Otava.locate() {
        case .success(let otava): print("  change points (bench history): Apache Otava at \(otava.executable)")
        case .failure(let reason): print("  change points (bench history): unavailable: \(reason)")
        }

        let operation = try Spin().prepare(
            BenchmarkCase(
                workload: "spin", backend: BenchmarkCase.noBackend,
                parameters: [Parameter("rounds", "100")], allocator: .system), backend: nil)
        let noise = try NoiseEstimate.measure(operation)
        try operation.finish()
        let stats = noise.statistics
        print("\nTiming noise (spin of 100 rounds, \(NoiseEstimate.samples) samples of \(NoiseEstimate.sampleTime))")
        // The verdict reads the spread alone; the CV is shown apart, said to be outlier-driven, so
        // that a CV of 9% beside "some noise" and one of 4% beside "noisy" do not read as a contradiction.
        print(
            "  median \(Figures.value(stats.median)) ns, "
                + "p10–p90 \(Figures.value(stats.p10))–\(Figures.value(stats.p90)) ns: "
                + "spread \(percent(noise.spreadPercent)) of the median → \(noise.verdict) (quiet up to 1%, "
                + "noisy above \(Int(NoiseEstimate.noisyAbovePercent))%)")
        print(
            "  CV \(percent(noise.variationPercent)) with \(stats.outliers.total) "
                + "outlier\(stats.outliers.total == 1 ? "" : "s"): a few slow samples move the CV but not the "
                + "spread, so the verdict reads the spread")

        print("\nAdvice")
        for line in advice(environment, noise, counters) { print("  - \(line)") }
        print("\nFidelity")
        print(
            "  `bench fidelity` sets each figure the suite publishes beside the same operation written "
                + "directly against the")
        print(
            "  runtime (C, idiomatic Swift, the concrete type), measured in the same run, "
                + "and says whether the suite's own")
        print(
            "  layers stay within 1.25× (or 3 ns): run it on this machine before trusting a figure "
                + "or a verdict from it.")
    }

    private func advice(_ environment: RunEnvironment, _ noise: NoiseEstimate, _ counters: CounterSet) -> [String] {
        var lines: [String] = []
        if noise.spreadPercent > NoiseEstimate.noisyAbovePercent {
            lines.append(
                "timing is noisy (spread \(percent(noise.spreadPercent))): use more "
                    + "--repetitions, close other work, or pin with --cpus")
        }
        if environment.virtualMachine.hasPrefix("yes") {
            lines.append(
                "this is a virtual machine: hardware counters usually need a PMU passed through; "
                    + "expect them unavailable")
        }
        if environment.cpuGovernor.hasPrefix("unavailable") {
            lines.append("no CPU frequency control visible: the host decides; compare runs made close together")
        } else if environment.cpuGovernor != "performance" {
            lines.append(
                "CPU governor is '\(environment.cpuGovernor)': 'performance' avoids frequency ramps between samples")
        }
        if geteuid() != 0, let level = Int(environment.perfEventParanoid), level >= 2 {
            lines.append(
                "perf_event_paranoid is \(level) and you are not root: kernel events (context switches from perf) "
                    + "are excluded; rusage supplies them")
        }
        let syscalls = counters.sources.lazy.compactMap { $0 as? SyscallCounters }.first
        if syscalls?.problem == .tracepointNotVisible, geteuid() == 0 {
            lines.append(
                "mount tracefs to count system calls per operation: mount -t tracefs nodev /sys/kernel/tracing")
        }
        if JemallocLibrary.locate() == nil {
            lines.append("install jemalloc (tools/install-deps.sh) to compare allocators")
        }
        if CPUAffinity.current().count < environment.onlineCPUs {
            lines.append(
                "this process is restricted to CPUs \(CPUAffinity.current()): "
                    + "backends sized from the CPU count may oversubscribe")
        }
        return lines.isEmpty ? ["nothing to change"] : lines
    }

    private func percent(_ value: Double) -> String { "\(Figures.value(value))%" }
}

import FoundationEssentials
import Results

/// google-benchmark.json: the run in Google Benchmark's JSON layout, which its compare.py,
/// Bencher and github-action-benchmark read.
///
/// The mapping:
/// - An iteration is 1,000 operations, for every case: compare.py prints times as whole numbers
///   of the time unit, and nanoseconds is its smallest, so a 7.65 ns operation would read "8".
///   Per 1,000 it reads 7650. The batch is fixed, not chosen from the figure, because compare.py
///   compares the numbers of two files without their units or batches; the name carries it
///   (`/ops:1000`, Google Benchmark's form for a named argument).
/// - Each case with samples is a benchmark named by its id and the batch. Each child process is
///   one repetition (`run_type` "iteration"): `real_time` is the process's figure (`processNanoseconds`), in ns
///   per 1,000 operations. `cpu_time` is the process's task-clock for as many operations (every
///   thread's CPU time), or the real time where task-clock was not measured. `iterations` is the
///   operations it timed, in thousands, rounded up.
/// - A "median" aggregate follows the repetitions. Its time is the case's figure: the median
///   over the processes.
/// - The context carries the machine's identity (CPU, usable CPUs, kernel, VM, Swift, commit) as
///   `runtimebench_*` keys, which Google Benchmark's readers ignore and a dashboard can tag by.
enum GoogleBenchmarkExport {
    static let fileName = "google-benchmark.json"
    /// Operations per iteration: enough that the fastest case keeps 3 significant digits in ns.
    static let operationsPerIteration = 1000
    static let nameSuffix = "/ops:\(operationsPerIteration)"

    struct File: Encodable {
        let context: [String: Value]
        let benchmarks: [Benchmark]
    }

    /// A context value: Google Benchmark writes strings, numbers and booleans there.
    enum Value: Encodable {
        case text(String)
        case number(Int)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            }
        }
    }

    struct Benchmark: Encodable {
        let name: String
        let family_index: Int
        let per_family_instance_index: Int
        let run_name: String
        let run_type: String
        let repetitions: Int
        let repetition_index: Int?
        let aggregate_name: String?
        let aggregate_unit: String?
        let threads = 1
        let iterations: Int
        let real_time: Double
        let cpu_time: Double
        let time_unit = "ns"
    }

    static func encode(_ run: RunResults, cases: [MeasuredCase]) throws -> String {
        let environment = run.environment
        var context: [String: Value] = [
            "host_name": .text(environment.hostname),
            "executable": .text(run.executable ?? "bench"),
            "num_cpus": .number(environment.cpusAtOnce),
            "library_build_type": .text("release"),
            "runtimebench_cpu_model": .text(environment.cpuModel),
            "runtimebench_online_cpus": .number(environment.onlineCPUs),
            "runtimebench_kernel": .text(environment.kernel),
            "runtimebench_virtual_machine": .text(environment.virtualMachine),
            "runtimebench_swift": .text(environment.swiftCompiler),
            "runtimebench_commit": .text(environment.gitCommit),
            "runtimebench_suite": .text(run.suite.rawValue),
        ]
        if let usable = environment.usableCPUs { context["runtimebench_usable_cpus"] = .text(usable.description) }
        if let started = run.started { context["date"] = .text(started.description) }
        var benchmarks: [Benchmark] = []
        var families: [String: Int] = [:]
        var instances: [String: Int] = [:]
        for measured in cases {
            guard let estimate = measured.estimate else { continue }
            let id = measured.benchmarkCase.id + nameSuffix
            let batch = Double(operationsPerIteration)
            let family = families[measured.benchmarkCase.workload] ?? families.count
            families[measured.benchmarkCase.workload] = family
            let instance = instances[measured.benchmarkCase.workload, default: 0]
            instances[measured.benchmarkCase.workload] = instance + 1
            let records = measured.result.records
            let cpu = measured.result.counterPerProcess("task-clock")
            for (index, record) in records.enumerated() {
                let real = record.processNanoseconds ?? estimate.value
                let operations = record.batch * record.nanosecondsPerOperation.count
                benchmarks.append(
                    Benchmark(
                        name: id, family_index: family, per_family_instance_index: instance, run_name: id,
                        run_type: "iteration", repetitions: records.count, repetition_index: index,
                        aggregate_name: nil, aggregate_unit: nil,
                        iterations: (operations + operationsPerIteration - 1) / operationsPerIteration,
                        real_time: real * batch,
                        cpu_time: (cpu.count == records.count ? cpu[index] : real) * batch))
            }
            let medianCPU =
                cpu.count == records.count
                ? measured.result.counterMedian("task-clock") ?? estimate.value : estimate.value
            benchmarks.append(
                Benchmark(
                    name: id + "_median", family_index: family, per_family_instance_index: instance, run_name: id,
                    run_type: "aggregate", repetitions: records.count, repetition_index: nil,
                    aggregate_name: "median", aggregate_unit: "time", iterations: records.count,
                    real_time: estimate.value * batch, cpu_time: medianCPU * batch))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(File(context: context, benchmarks: benchmarks)), as: UTF8.self)
            + "\n"
    }
}

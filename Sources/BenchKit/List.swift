import ArgumentParser
import Backends
import Counters
import Harness
import Results
import RuntimeKit
import Workloads

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List workloads (with their parameters in the --suite chosen), backends, allocators and suites."
    )

    @Flag(help: "Print only the backend ids, one per line (for scripts).")
    var idsOnly = false

    @Flag(help: "Print the id of every case the selection below would run, one per line (what --filter matches).")
    var cases = false

    @OptionGroup(title: "Case selection (with --cases)") var selection: CaseSelection

    func run() throws {
        if idsOnly {
            Backends.ids.forEach { print($0) }
            return
        }
        if cases {
            do {
                try selection.plan(repetitions: 1).cases.forEach { print($0.id) }
            } catch {
                throw ValidationError(error.description)
            }
            return
        }
        let suite = selection.chosenSuite
        print("Workloads (parameters in the \(suite.rawValue) suite; --suite chooses another):")
        for workload in Workloads.all {
            let sets = workload.parameterSets(for: suite).map {
                $0.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
            }
            let onBackends = workload.parameterSets(for: suite).map(workload.usesBackend(for:))
            let scope =
                onBackends.allSatisfy { $0 }
                ? "" : onBackends.contains(true) ? " (some sets on no backend)" : " (no backend)"
            print(
                "  \(workload.name)\(scope)\n    \(workload.summary)\n    one operation: "
                    + "\(workload.operation)\n    parameters: \(sets.joined(separator: "  "))")
        }
        print("\nBackends:")
        for backend in Backends.all {
            print(
                "  \(backend.id)\n    \(backend.summary)\n    workers: "
                    + "\(workerCount(of: backend.runtime)) (with workers: 0)")
            for (behaviour, reason) in backend.unsupported.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("    not supported: \(behaviour): \(reason)")
            }
        }
        print("\nAllocators:")
        print("  system    glibc malloc")
        print(
            "  jemalloc  "
                + (JemallocLibrary.locate().map { "LD_PRELOAD=\($0)" }
                    ?? "not installed (tools/install-deps.sh installs it); its cases are reported not applicable"))
        print("\nSuites: smoke (seconds, checks the machinery), quick (under 3 minutes), full (under 30 minutes)")
    }

    private func workerCount<R: ConcurrencyRuntime>(of runtime: R.Type) -> Int {
        let instance = R(workers: 0)
        defer { instance.shutdown() }
        return instance.workers
    }
}

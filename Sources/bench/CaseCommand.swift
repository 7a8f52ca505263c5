import ArgumentParser
import Backends
import Counters
import FoundationEssentials
import Harness
import Results
import Workloads
#if canImport(Glibc)
import Glibc
#endif

/// The child side of one case: `bench run` re-executes this binary as `bench case <request>`
/// for every case and repetition, so each runs in a fresh process. It prints one JSON record on
/// standard output; anything else goes to standard error. Not meant to be run by hand.
struct CaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "case",
        abstract: "Run one case in this process and print its record (used by `bench run`).",
        shouldDisplay: false
    )

    @Argument(help: "The request, as JSON.")
    var request: String

    func run() throws {
        let request: ChildRequest
        do {
            request = try ChildRequest.decode(self.request)
        } catch {
            throw ValidationError("the request is not valid JSON for this bench: \(error)")
        }
        if let cpus = request.cpus {
            try CPUAffinity.pin(to: cpus)  // first: every thread created from here on inherits it
        }
        // Counters before anything creates a thread: with inherit, perf events count only
        // threads created after they were opened.
        let counters = CounterSet()
        let benchmarkCase = request.benchmarkCase
        if let calibration = request.calibration {
            do {
                try WorkloadCalibration.use(calibration)
            } catch {
                throw ValidationError("the request's \(error)")
            }
        }
        guard let workload = Workloads.named(benchmarkCase.workload) else {
            throw ValidationError("unknown workload '\(benchmarkCase.workload)'")
        }
        let usesBackend = workload.usesBackend(for: benchmarkCase.parameters)
        let backend = usesBackend ? Backends.named(benchmarkCase.backend) : nil
        if usesBackend && backend == nil {
            throw ValidationError("unknown backend '\(benchmarkCase.backend)'")
        }
        do {
            let operation = try workload.prepare(benchmarkCase, backend: backend)
            let measured = try request.sampler.measure(operation, counters: counters)
            try operation.finish()
            let record = CaseRecord(
                version: CaseRecord.currentVersion, caseID: benchmarkCase.id, repetition: request.repetition,
                batch: measured.batch, nanosecondsPerOperation: measured.nanosecondsPerOperation,
                metricsPerOperation: measured.metricsPerOperation, unavailable: counters.unavailable,
                workloadMetrics: operation.workloadMetrics.isEmpty ? nil : operation.workloadMetrics, cpus: CPUAffinity.current())
            print(String(decoding: try JSONEncoder().encode(record), as: UTF8.self))
        } catch let error as WorkloadError {
            if case .notApplicable(let why) = error {
                writeToStandardError("\(why)\n")
                Glibc.exit(ChildRequest.notApplicableStatus)
            }
            throw error
        }
    }
}

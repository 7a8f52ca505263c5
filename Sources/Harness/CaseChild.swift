import Results
import Backends
import FoundationEssentials

/// The child side of one case, the counterpart of `CaseLauncher`: a parent re-executes `bench`
/// as `bench case <request>` for every case and repetition, so each runs in a fresh process; the
/// child measures the case and prints one JSON record on standard output (`CaseRecord`).
///
/// The workloads and the counters live in modules that depend on this one, so the child is handed
/// them: the CLI, where every module meets, composes it.
public struct CaseChild {
    /// The workload of that name, or nil when this bench has none.
    public let workload: (String) -> (any Workload)?
    /// Applies the parent's calibrations (`ChildRequest.calibration`) before anything is measured.
    public let calibrate: ([String: Double]) throws -> Void
    /// Opens the counters for the case's backend (its `id`, or `BenchmarkCase.noBackend`): its
    /// own scheduling events are counted only by some; and the events the run asked for by name.
    /// Called after the process is pinned and before anything creates a thread: with inherit,
    /// perf events count only threads created after they were opened.
    public let openCounters: (_ backend: String, _ events: [String]) -> any SampleCounters

    public init(
        workload: @escaping (String) -> (any Workload)?, calibrate: @escaping ([String: Double]) throws -> Void,
        openCounters: @escaping (_ backend: String, _ events: [String]) -> any SampleCounters
    ) {
        self.workload = workload
        self.calibrate = calibrate
        self.openCounters = openCounters
    }

    /// What came of the case: its record, or why it cannot run here (the child then exits with
    /// `ChildRequest.notApplicableStatus`).
    public enum Outcome {
        case record(CaseRecord)
        case notApplicable(String)
    }

    /// A request this child cannot act on: a mistake of the parent, not of the case.
    public struct RequestError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Measures the case `request` names in this process.
    /// - Throws: `RequestError` for a request that is not valid JSON, a bad calibration or an
    ///   unknown workload or backend; whatever the workload throws when it fails.
    public func run(_ text: String) throws -> Outcome {
        let request: ChildRequest
        do {
            request = try ChildRequest.decode(text)
        } catch {
            throw RequestError(description: "the request is not valid JSON for this bench: \(error)")
        }
        if let cpus = request.cpus {
            try CPUAffinity.pin(to: cpus)  // first: every thread created from here on inherits it
        }
        let benchmarkCase = request.benchmarkCase
        let counters = openCounters(benchmarkCase.backend, request.events ?? [])
        if let calibration = request.calibration {
            do { try calibrate(calibration) } catch { throw RequestError(description: "the request's \(error)") }
        }
        guard let workload = workload(benchmarkCase.workload) else {
            throw RequestError(description: "unknown workload '\(benchmarkCase.workload)'")
        }
        let usesBackend = workload.usesBackend(for: benchmarkCase.parameters)
        let backend = usesBackend ? Backends.named(benchmarkCase.backend) : nil
        if usesBackend && backend == nil {
            throw RequestError(description: "unknown backend '\(benchmarkCase.backend)'")
        }
        // Before the workload makes the runtime and before anything here touches Swift
        // concurrency: nio-global installs NIO as Swift's global executor here, or says why not.
        if let backend {
            do {
                try backend.runtime.prepareProcess()
            } catch {
                return .notApplicable("\(backend.id) cannot run in this process: \(error)")
            }
        }
        // Before the runtime's threads exist, and again after they are gone: the probe spins on
        // two CPUs, and a worker that shared one would time itself, not the machine.
        let hopBefore = CPUHopProbe.hop(between: CPUAffinity.current())
        do {
            let operation = try workload.prepare(benchmarkCase, backend: backend)
            let window = try request.profile.map { paths throws(FileError) in try ProfileWindow(paths) }
            let threads = LiveThreads()
            let measured = try request.sampler.measure(
                operation, counters: counters, profile: window, threads: threads)
            try operation.finish()
            let hop = CPUHopProbe.hop(before: hopBefore, after: CPUHopProbe.hop(between: CPUAffinity.current()))
            let figures = operation.workloadMetrics.merging(threads.figures) { own, _ in own }
            return .record(
                CaseRecord(
                    version: CaseRecord.currentVersion, caseID: benchmarkCase.id, repetition: request.repetition,
                    batch: measured.batch, nanosecondsPerOperation: measured.nanosecondsPerOperation,
                    metricsPerOperation: measured.metricsPerOperation, unavailable: counters.unavailable,
                    workloadMetrics: figures.isEmpty ? nil : figures,
                    cpus: CPUAffinity.current(), cpuHop: hop))
        } catch WorkloadError.notApplicable(let why) {
            return .notApplicable(why)
        }
    }
}

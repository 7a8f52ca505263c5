import Results
import FoundationEssentials

/// Runs one repetition of one case in a child process of a given `bench` executable and says
/// what came of it: a record checked against the request, a failure with its reason, or "not
/// applicable here". `Runner` uses it with its own executable, or with two builds (`bench ab`).
public struct CaseLauncher: Sendable {
    public let sampler: Sampler
    /// Wall time after which a child is killed and its repetition recorded as hung.
    public let deadline: Duration
    /// Path of libjemalloc.so.2 for LD_PRELOAD, or nil when jemalloc cannot be preloaded: then
    /// its cases are not applicable, for `jemallocMissing`.
    public let jemalloc: String?
    /// Why a jemalloc case is not applicable when `jemalloc` is nil.
    public let jemallocMissing: String
    public static let jemallocNotInstalled =
        "jemalloc not installed (no libjemalloc.so.2; tools/install-deps.sh installs it)"
    /// Whether every child preloads the interposer beside its executable, counting allocations,
    /// retains and releases on every thread (`--count-allocations`; timings include its cost).
    public let countsAllocations: Bool
    /// Events every child counts by name besides the usual counters (`--events`).
    public let events: [String]
    /// Events counted for some cases only, by name, besides `events`: a counter too costly to
    /// time every case under (system calls, for the cases whose count a claim reads).
    public let eventsOfCase: @Sendable (BenchmarkCase) -> [String]
    /// CPUs every child is pinned to, or nil.
    public let cpus: [Int]?
    /// Handed to every child (`ChildRequest.calibration`).
    public let calibration: [String: Double]?

    public init(
        sampler: Sampler, deadline: Duration, jemalloc: String?, jemallocMissing: String = jemallocNotInstalled,
        countsAllocations: Bool = false, events: [String] = [],
        eventsOfCase: @escaping @Sendable (BenchmarkCase) -> [String] = { _ in [] }, cpus: [Int]? = nil,
        calibration: [String: Double]? = nil
    ) {
        self.jemallocMissing = jemallocMissing
        self.events = events
        self.eventsOfCase = eventsOfCase
        self.sampler = sampler
        self.deadline = deadline
        self.jemalloc = jemalloc
        self.countsAllocations = countsAllocations
        self.cpus = cpus
        self.calibration = calibration
    }

    public enum Outcome: Sendable, Equatable {
        case record(CaseRecord)
        case failed(String)
        case notApplicable(String)
        /// The run was interrupted while this repetition ran: nothing to record.
        case interrupted

        /// "ok", or the reason, for progress lines and the journal.
        public var summary: String {
            switch self {
            case .record: "ok"
            case .failed(let reason): reason
            case .notApplicable(let reason): "not applicable: \(reason)"
            case .interrupted: "interrupted"
            }
        }
    }

    public func run(_ benchmarkCase: BenchmarkCase, repetition: Int, executable: String) async throws -> Outcome {
        // The interposer first: its malloc passes each call on to the next definition, jemalloc's
        // when jemalloc is preloaded after it, glibc's otherwise.
        var preload: [String] = []
        if countsAllocations {
            switch InterposerLibrary.locate(besides: executable) {
            case .success(let path): preload.append(path)
            case .failure(let missing): return .failed("cannot count allocations: \(missing)")
            }
        }
        if benchmarkCase.allocator == .jemalloc {
            guard let jemalloc else {
                return .notApplicable(jemallocMissing)
            }
            preload.append(jemalloc)
        }
        let environment = preload.isEmpty ? [:] : ["LD_PRELOAD": preload.joined(separator: ":")]
        var request = ChildRequest(
            benchmarkCase: benchmarkCase, repetition: repetition, sampler: sampler, cpus: cpus,
            calibration: calibration)
        let counted = events + eventsOfCase(benchmarkCase).filter { !events.contains($0) }
        if !counted.isEmpty { request.events = counted }
        let outcome = try await ChildProcess.run(
            executable: executable, arguments: ["case", request.encoded()],
            environment: environment, deadline: deadline)
        if outcome.ending == .interrupted { return .interrupted }
        if case .exited(ChildRequest.notApplicableStatus) = outcome.ending {
            return .notApplicable(
                outcome.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no reason given")
        }
        switch ChildVerdict(outcome) {
        case .failed(let reason):
            return .failed(reason)
        case .record(let line):
            do {
                let record = try JSONDecoder().decode(CaseRecord.self, from: Data(line.utf8))
                guard record.version == CaseRecord.currentVersion else {
                    return .failed(
                        "unreadable output: record version \(record.version), "
                            + "this bench reads \(CaseRecord.currentVersion)")
                }
                guard record.caseID == benchmarkCase.id, record.repetition == repetition else {
                    return .failed(
                        "unreadable output: record is for \(record.caseID) #\(record.repetition), "
                            + "not \(benchmarkCase.id) #\(repetition)")
                }
                return .record(record)
            } catch {
                return .failed("unreadable output: \(error); last line: \(line.prefix(200))")
            }
        }
    }
}

extension CaseResult {
    /// Files a repetition's outcome: the record, the failure, or why the case cannot run here.
    public mutating func file(_ outcome: CaseLauncher.Outcome) {
        switch outcome {
        case .record(let record): records.append(record)
        case .failed(let reason): failures.append(reason)
        case .notApplicable(let reason): notApplicable = reason
        case .interrupted: break
        }
    }
}

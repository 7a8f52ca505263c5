#if canImport(Glibc)
import Glibc
#endif

/// Everything a run produced: the versioned content of results.json.
public struct RunResults: Sendable, Codable {
    /// Bumped when a field changes meaning, so a reader can refuse what it does not understand.
    public static let currentSchema = 1

    public var schema: Int = RunResults.currentSchema
    public var environment: RunEnvironment
    /// Metric name → available, or unavailable with the reason, as the children saw it. A metric
    /// available under one allocator only (jemalloc's) says so.
    public var counterAvailability: [String: Availability]
    /// Optional tools the run looked for ("PAPI", "jemalloc") → what was found, or why not.
    public var tools: [String: String] = [:]
    /// The calibrations every child of the run used (`ChildRequest.calibration`), e.g.
    /// "spin-ns-per-round"; absent in files written before it existed.
    public var calibration: [String: Double]?
    public var suite: Suite
    /// The `bench` executable whose children measured the cases, when it is not the one that
    /// wrote the file (`bench ab` writes one file per build); nil otherwise.
    public var executable: String?
    /// Set when the run was stopped by a signal before it finished ("SIGINT after 12 of 40
    /// repetitions"): the cases are what finished. Nil for a complete run.
    public var interrupted: String?
    /// What else used the machine while the cases ran; absent in files written before it existed
    /// and where /proc/stat cannot be read.
    public var load: MachineLoad?
    /// Every counter the children could report, described by its source (`Metric`); nil in files
    /// written before metrics were described, which `bench` reads with its own descriptions.
    public var metrics: [Metric]?
    /// True when every child preloaded the interposer that counts allocations, retains and
    /// releases (`--count-allocations`), so every timing includes its cost; nil when none did.
    public var countedAllocations: Bool?
    /// When the run started, so a series of runs can be ordered and dashboards can place it;
    /// nil in files written before it was recorded.
    public var started: Instant?
    /// The profiles `bench run --profile` took of some cases; nil when none was asked for.
    public var profiles: [ProfileSummary]?
    /// The backends the run measured, by id, each with its runtime's one-line summary, so a report
    /// can say what "fifo-dispatch" is; nil in files written before it was recorded.
    public var backends: [String: String]?
    public var repetitions: Int
    public var sampleTimeNanoseconds: Int64
    public var cases: [CaseResult]

    public init(
        environment: RunEnvironment, counterAvailability: [String: Availability], metrics: [Metric]? = nil,
        suite: Suite,
        repetitions: Int, sampleTimeNanoseconds: Int64, cases: [CaseResult]
    ) {
        self.environment = environment
        self.metrics = metrics
        self.counterAvailability = counterAvailability
        self.suite = suite
        self.repetitions = repetitions
        self.sampleTimeNanoseconds = sampleTimeNanoseconds
        self.cases = cases
    }
}

/// One case across its repetitions (one child process each).
public struct CaseResult: Sendable, Codable {
    public let benchmarkCase: BenchmarkCase
    public var records: [CaseRecord] = []
    /// One reason per repetition that did not produce a record.
    public var failures: [String] = []
    /// Set when the case cannot run here at all (e.g. jemalloc not installed).
    public var notApplicable: String?

    public init(benchmarkCase: BenchmarkCase) { self.benchmarkCase = benchmarkCase }

    /// A description of ns/operation over every sample of every repetition; nil without samples.
    /// The case's figure and its interval come from its processes instead (`RunEstimates`).
    public var statistics: SampleStatistics? {
        let all = records.flatMap(\.nanosecondsPerOperation)
        return all.isEmpty ? nil : SampleStatistics(all)
    }

    public var status: String {
        if let notApplicable { return "not applicable: \(notApplicable)" }
        if records.isEmpty { return "failed: \(failures.first ?? "no record")" }
        return failures.isEmpty
            ? "ok" : "partial: \(failures.count) of \(failures.count + records.count) repetitions failed"
    }
}

extension RunResults {
    /// Merges what every child reported: available where any child measured it, otherwise the
    /// first reason given.
    public static func counterAvailability(of cases: [CaseResult]) -> [String: Availability] {
        var availability: [String: Availability] = [:]
        for record in cases.flatMap(\.records) {
            for metric in record.metricsPerOperation.keys { availability[metric] = .available }
            for (metric, reason) in record.unavailable where availability[metric] == nil {
                availability[metric] = .unavailable(reason: reason)
            }
        }
        return availability
    }
}

extension RunResults {
    /// A moment in UTC, as whole seconds since the Unix epoch: what results files, Google
    /// Benchmark's context and InfluxDB's line protocol all derive their time from.
    public struct Instant: Sendable, Codable, Equatable, Comparable, CustomStringConvertible {
        public let secondsSinceEpoch: Int64

        public init(secondsSinceEpoch: Int64) { self.secondsSinceEpoch = secondsSinceEpoch }

        public static func now() -> Instant { Instant(secondsSinceEpoch: Int64(time(nil))) }

        public init(from decoder: any Decoder) throws {
            secondsSinceEpoch = try decoder.singleValueContainer().decode(Int64.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(secondsSinceEpoch)
        }

        /// "2026-11-25 02:44:10" (UTC), the layout of Google Benchmark's context date.
        public var description: String {
            var seconds = time_t(secondsSinceEpoch)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }
    }
}

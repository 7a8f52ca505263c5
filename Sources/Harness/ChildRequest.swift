import Results
import FoundationEssentials

/// What the parent asks a child to measure, passed as one JSON argument to the hidden
/// `bench case` command.
public struct ChildRequest: Sendable, Codable, Equatable {
    public let benchmarkCase: BenchmarkCase
    public let repetition: Int
    public let samples: Int
    public let sampleTimeNanoseconds: Int64
    public let warmupNanoseconds: Int64
    /// CPUs to pin the child to before anything else, or nil to leave it free.
    public let cpus: [Int]?
    /// Measurements the parent made once for the whole run and every child uses instead of making
    /// its own (the workloads' calibrations, by name), so that every case of a run does the same
    /// work for the same parameters. Nil: the child calibrates for itself.
    public let calibration: [String: Double]?
    /// The profiler's control FIFOs when the case runs under `bench profile`; nil otherwise.
    public var profile: ProfileControl?
    /// Events the run asked for by name (`--events`), counted besides the usual counters; nil
    /// when none.
    public var events: [String]?

    public init(
        benchmarkCase: BenchmarkCase, repetition: Int, sampler: Sampler, cpus: [Int]? = nil,
        calibration: [String: Double]? = nil
    ) {
        self.cpus = cpus
        self.calibration = calibration
        self.benchmarkCase = benchmarkCase
        self.repetition = repetition
        samples = sampler.samples
        sampleTimeNanoseconds =
            Int64(sampler.sampleTime.components.seconds) * 1_000_000_000 + sampler.sampleTime.components.attoseconds
            / 1_000_000_000
        warmupNanoseconds =
            Int64(sampler.warmup.components.seconds) * 1_000_000_000 + sampler.warmup.components.attoseconds
            / 1_000_000_000
    }

    public var sampler: Sampler {
        Sampler(
            sampleTime: .nanoseconds(sampleTimeNanoseconds), samples: samples, warmup: .nanoseconds(warmupNanoseconds))
    }

    /// The exit status a child uses to say "this case cannot run here" (with the reason on
    /// standard error) rather than "it failed": automake's convention for a skipped test.
    public static let notApplicableStatus: Int32 = 77

    public func encoded() -> String {
        String(decoding: try! JSONEncoder().encode(self), as: UTF8.self)  // plain value types: cannot fail
    }

    public static func decode(_ text: String) throws -> ChildRequest {
        try JSONDecoder().decode(ChildRequest.self, from: Data(text.utf8))
    }
}

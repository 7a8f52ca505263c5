import CBodyCost
import Harness
import PThreadPrimitives

/// The cost of one loop body, as given in a case's `body` parameter: `0ns`, `10ns`, `100ns`,
/// `1us`, `10us`. In the child it becomes a number of `rb_spin` rounds through a per-process
/// calibration, so a body costs the same time on every machine while staying a serialized spin
/// (a plain counted loop overlaps with its neighbours in the out-of-order core).
///
/// This is the one place the parameter is parsed and formatted: every workload with a body cost
/// reads it with `BodyCost(parameterOf:)` and writes it with `parameter`.
public struct BodyCost: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let nanoseconds: Int

    public static let parameterName = "body"
    /// The body costs of the design brief: empty, then decades from 10 ns to 10 µs.
    public static let all: [BodyCost] = [0, 10, 100, 1_000, 10_000].map(BodyCost.init(nanoseconds:))

    /// - Precondition: `nanoseconds >= 0`.
    public init(nanoseconds: Int) {
        precondition(nanoseconds >= 0, "a body cost is zero or more nanoseconds, got \(nanoseconds)")
        self.nanoseconds = nanoseconds
    }

    /// Parses `<n>ns` or `<n>us` (n a non-negative integer), the forms `description` writes.
    public init(parsing text: String) throws(WorkloadError) {
        let units: [(suffix: String, nanoseconds: Int)] = [("ns", 1), ("us", 1_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            let digits = text.dropLast(unit.suffix.count)
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
               let value = Int(digits), value <= Int.max / unit.nanoseconds {
                self.init(nanoseconds: value * unit.nanoseconds)
                return
            }
        }
        throw Self.badParameter(text)
    }

    /// Reads the `body` parameter of `benchmarkCase`; a missing or malformed one is a
    /// `badParameter` error that says which forms are valid.
    public init(parameterOf benchmarkCase: BenchmarkCase) throws(WorkloadError) {
        guard let text = benchmarkCase.parameter(Self.parameterName) else {
            throw Self.badParameter(nil, workload: benchmarkCase.workload)
        }
        do {
            try self.init(parsing: text)
        } catch {
            throw Self.badParameter(text, workload: benchmarkCase.workload)
        }
    }

    /// `10us` when the cost is whole microseconds, `10ns` otherwise: the case-id form.
    public var description: String {
        nanoseconds > 0 && nanoseconds % 1_000 == 0 ? "\(nanoseconds / 1_000)us" : "\(nanoseconds)ns"
    }

    /// This cost as a case parameter, `body=<description>`.
    public var parameter: Parameter { Parameter(Self.parameterName, description) }

    /// Spin rounds that take this long on this machine, rounded to the nearest whole round (a
    /// round is about 8 ns on this machine's Xeon, so `10ns` is one round: small bodies are
    /// approximate, which is why reports should show the `spin` workload's cost per round too).
    /// The first call of a non-empty cost in a process calibrates the spin (see
    /// `SpinCalibration`); an empty body needs no calibration.
    public var spinRounds: UInt64 {
        nanoseconds == 0 ? 0 : UInt64((Double(nanoseconds) / SpinCalibration.nanosecondsPerRound).rounded())
    }

    public static func < (a: BodyCost, b: BodyCost) -> Bool { a.nanoseconds < b.nanoseconds }

    private static func badParameter(_ text: String?, workload: String? = nil) -> WorkloadError {
        let who = workload.map { "\($0) needs " } ?? "expected "
        return .badParameter("\(who)\(parameterName)=<n>ns or <n>us with n a whole number (e.g. 0ns, 10ns, 1us), got \(text.map { "'\($0)'" } ?? "none")")
    }
}

/// What one `rb_spin` round costs in this process, measured once, lazily, in the child that
/// needs it (the parent never spins). The minimum of a few probes: interruptions and frequency
/// ramp-up only ever make a probe slower, so the fastest one is the closest to the true cost.
public enum SpinCalibration {
    /// Rounds per probe: long enough (tens of microseconds) that the clock's resolution and the
    /// cost of reading it vanish, short enough that calibrating stays under a few milliseconds.
    static let roundsPerProbe: UInt64 = 20_000
    static let probes = 5

    /// Nanoseconds per round. A `static let` is initialized once, thread-safely, on first use.
    public static let nanosecondsPerRound: Double = {
        var fastest = Int64.max
        for _ in 0..<probes {
            let start = MonotonicInstant.now
            rb_spin(roundsPerProbe)
            fastest = min(fastest, MonotonicInstant.now.nanoseconds - start.nanoseconds)
        }
        // A clock that did not advance would make every body free; one nanosecond is the floor.
        return Double(max(1, fastest)) / Double(roundsPerProbe)
    }()
}

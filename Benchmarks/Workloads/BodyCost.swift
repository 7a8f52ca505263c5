import CaseCatalogue
import CBodyCost
import Harness
import Results
import PThreadPrimitives
import Synchronization

/// The cost of one loop body, as given in a case's `body` parameter: `0ns`, `10ns`, `100ns`,
/// `1us`, `10us`. In the child it becomes a number of `rb_spin` rounds through the run's
/// calibration (`SpinCalibration`), so a body costs the same time on every machine while staying
/// a serialized spin (a plain counted loop overlaps with its neighbours in the out-of-order core).
///
/// This is the one place the parameter is parsed and formatted: every workload with a body cost
/// reads it with `BodyCost(parameterOf:)` and writes it with `parameter`.
public struct BodyCost: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let nanoseconds: Int

    public static let parameterName = ParameterName.body.rawValue
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
                let value = Int(digits), value <= Int.max / unit.nanoseconds
            {
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

    /// Spin rounds that take this long on this machine, rounded to the nearest whole round: for a
    /// body spun once per operation, where 100 ns and more are tens of rounds. A loop's body
    /// (apply) spins `spinRoundsPerIndex` instead, since `10ns` is two or three rounds and the
    /// rounding would decide its cost.
    /// The first call of a non-empty cost in a process calibrates the spin (see
    /// `SpinCalibration`); an empty body needs no calibration.
    public var spinRounds: UInt64 { UInt64(exactSpinRounds.rounded()) }

    /// Spin rounds per loop index, to a 2^-32 of a round: the indices of a loop spin the whole
    /// rounds and one more by turns (`rb_spin_rounds_through`), so a loop's work moves only as far
    /// as its calibration does.
    public var spinRoundsPerIndex: rb_spin_rounds { rb_spin_rounds(rounds: exactSpinRounds) }

    private var exactSpinRounds: Double {
        nanoseconds == 0 ? 0 : Double(nanoseconds) / SpinCalibration.nanosecondsPerRound
    }

    public static func < (a: BodyCost, b: BodyCost) -> Bool { a.nanoseconds < b.nanoseconds }

    private static func badParameter(_ text: String?, workload: String? = nil) -> WorkloadError {
        let who = workload.map { "\($0) needs " } ?? "expected "
        return .badParameter(
            "\(who)\(parameterName)=<n>ns or <n>us with n a whole number (e.g. 0ns, 10ns, 1us), "
                + "got \(text.map { "'\($0)'" } ?? "none")")
    }
}

extension rb_spin_rounds {
    /// `rounds` to the nearest 2^-32 of a round.
    /// - Precondition: `rounds` is zero or more, and finite.
    public init(rounds: Double) {
        precondition(rounds >= 0 && rounds.isFinite, "spin rounds are zero or more, got \(rounds)")
        let whole = rounds.rounded(.down)
        let fraction = ((rounds - whole) * 0x1_0000_0000).rounded()
        // A fraction that rounds up to a whole round carries into `whole`.
        self =
            fraction >= 0x1_0000_0000
            ? rb_spin_rounds(whole: UInt64(whole) + 1, fraction: 0)
            : rb_spin_rounds(whole: UInt64(whole), fraction: UInt32(fraction))
    }

    /// The rounds per index as a number.
    public var rounds: Double { Double(whole) + Double(fraction) / 0x1_0000_0000 }
}

/// What one `rb_spin` round costs. `bench run` measures it once in the parent and hands the value
/// to every child (`WorkloadCalibration`), so every case of a run spins the same rounds for the
/// same body cost: children calibrating for themselves disagree widely (Benchmarks/README.md,
/// "Body costs"), which would make backends look faster or slower at "the same" body. A child run
/// without a supplied value (a test, `bench case` by hand) measures it itself on first use.
public enum SpinCalibration {
    /// The name of this calibration in `ChildRequest.calibration` and results.json.
    public static let name = "spin-ns-per-round"
    /// Rounds per probe: long enough (tens of microseconds) that the clock's resolution and the
    /// cost of reading it vanish, short enough that calibrating stays under a few milliseconds.
    static let roundsPerProbe: UInt64 = 20_000
    /// Probes: about 6 ms in all. The cost of a round drifts from run to run (Benchmarks/README.md,
    /// "Body costs"), and no amount of probing inside one process removes that. What a shared
    /// value guarantees is that every case of a run does the same work; apply-serial measures what
    /// a body really cost in that run, and reports should quote it next to the nominal body cost.
    static let probes = 50

    private static let supplied = Mutex<Double?>(nil)
    /// Measured once, thread-safely, on first use (a `static let`), if nothing was supplied.
    private static let measuredHere: Double = measure()

    /// Nanoseconds per round: the supplied value, or this process's own measurement.
    public static var nanosecondsPerRound: Double {
        supplied.withLock { $0 } ?? measuredHere
    }

    /// Makes every later body cost in this process use `nanoseconds` per round.
    /// - Precondition: positive and finite.
    public static func use(nanosecondsPerRound nanoseconds: Double) {
        precondition(
            nanoseconds > 0 && nanoseconds.isFinite,
            "a spin round must cost a positive, finite time, got \(nanoseconds)")
        supplied.withLock { $0 = nanoseconds }
    }

    /// Times the spin now: the minimum of a few probes (interruptions and frequency ramp-up only
    /// ever make a probe slower, so the fastest one is the closest to the true cost). Quick, for a
    /// child that was handed no value; `measure(over:)` is the run's.
    public static func measure() -> Double {
        perRound((0..<probes).map { _ in probe() }.min()!)
    }

    /// How long a run's calibration spins (`WorkloadCalibration`). A round's cost moves between
    /// levels with the host's load, and the 50 probes of `measure()` caught the fastest level in
    /// some runs only (4.67 and 6.46 ns in two runs back to back: every body of the second did 28%
    /// less work); over a second, 4.67 to 5.09 ns in 8 tries (Benchmarks/README.md, "Body costs").
    public static let runWindow: Duration = .seconds(1)

    /// The fastest probe of back-to-back probes for `window`: the cost of a round at the
    /// machine's fastest level, which a longer window finds more surely.
    public static func measure(over window: Duration) -> Double {
        let end = MonotonicInstant.now.nanoseconds + window.nanosecondsSaturating
        var fastest = probe()
        while MonotonicInstant.now.nanoseconds < end { fastest = min(fastest, probe()) }
        return perRound(fastest)
    }

    /// Nanoseconds one probe of `roundsPerProbe` rounds takes now.
    private static func probe() -> Int64 {
        let start = MonotonicInstant.now
        rb_spin(roundsPerProbe)
        return MonotonicInstant.now.nanoseconds - start.nanoseconds
    }

    /// A clock that did not advance would make every body free; one nanosecond is the floor.
    private static func perRound(_ probe: Int64) -> Double {
        Double(max(1, probe)) / Double(roundsPerProbe)
    }
}

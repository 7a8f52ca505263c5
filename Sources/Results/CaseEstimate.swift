#if canImport(Glibc)
import Glibc
#endif

/// A case's figure, from one value per process, and the interval a repeat run's figure should
/// fall in.
///
/// Samples of one process are not independent: a process that starts in a slow phase of the host
/// stays in it, so an interval over pooled samples narrows with every sample while a repeat run
/// lands elsewhere. Processes are independent of each other, so everything here counts one value
/// per process (its time, `CaseRecord.processNanoseconds`, or its counter per operation):
/// - the figure is the median of those values (for an even count, the geometric mean of the
///   middle two): one process that spent its life in a slow phase of the host does not move it;
/// - the work is on the values' logarithms: timings vary by factors, not by nanoseconds;
/// - the spread is the standard deviation of the logarithms, moderated towards the typical spread
///   of the run's other cases (`SpreadPrior`), because three or four processes alone estimate
///   it badly (two processes that happen to agree would claim a precision the machine does not
///   have);
/// - the interval is Student's t prediction interval for the figure of a repeat run with as many
///   processes, set around the figure: figure × exp(± t(0.975, ν) · √(2 · π/2 · s² / k + 2 σ²)).
///   The 2 is there because the repeat run's figure has a spread of its own; π/2 because the
///   figure is a median, whose spread over k values is wider than their mean's
///   (`medianVariance`); σ is the sitting's spread (`sittingSpread`): a whole run on this kind of
///   machine moves every figure a little together, which no spread inside one run can show. How
///   often the interval holds is measured (`bench agreement`, README "How far a figure holds");
/// - comparing two cases of one run uses t · √(2 s² / k), without σ and without π/2
///   (`comparisonInterval`): the run's drift moves both alike, and two such intervals apart put
///   the figures 2t · √(2 s² / k) apart: 1.6 t standard errors of the difference of two medians
///   of normal values, strict enough. With π/2 there too, the same four quick
///   runs held fewer "clearly" statements in their repeats (67 of 71 against 70 of 72) and fewer
///   first-screen answers word for word (43 of 48 against 45).
/// Where the processes fall into groups far apart (`ProcessMode`), the figure and interval over
/// all of them describe neither group: `modes` holds each group estimated alone.
public struct CaseEstimate: Sendable, Codable, Equatable {
    /// The median of the processes' values (the geometric mean of the middle two for an even count).
    public let value: Double
    /// Where a repeat run's figure should fall, 95 times in 100.
    public let repeatInterval: RepeatInterval
    /// The interval without the sitting's spread, and with the variance of a mean: what comparing
    /// two cases of one run uses, since a sitting moves both of them together (`Faster`); see the
    /// type's comment for why the median's π/2 is left out.
    public let comparisonInterval: RepeatInterval
    /// Processes (values) behind the figure.
    public var processes: Int { values.count }
    /// The processes' values, ascending: what a rank comparison reads (`Faster`), where processes
    /// fall into modes and no interval over their logarithms separates two cases.
    public let values: [Double]
    /// The moderated standard deviation of the values' natural logarithms: about the relative
    /// spread between processes (0.05 ≈ 5%).
    public let spread: Double
    /// The spread of these processes alone, before moderation; nil with one process.
    public let ownSpread: Double?
    /// Degrees of freedom of `spread`: the processes' own (k − 1) plus the prior's weight.
    public let degreesOfFreedom: Double
    /// The groups the processes fall into when some ran far from the others (`ProcessMode`),
    /// fastest first; empty when they form one.
    public let modes: [ProcessMode]

    /// The level of `repeatInterval`.
    public static let level = 0.95
    /// How far a whole run's timings move together between sittings, as a standard deviation of
    /// logarithms: the spin workload (pure CPU, the suite's calibration) moves about this much
    /// between quick-suite runs with nothing else running (README, "How far a figure holds"). Part
    /// of that is its processes' own spread, so 4% errs wide.
    public static let sittingSpread = 0.04
    /// The variance of the median of k values over the variance of one value, times k: π/2 for
    /// normal values as k grows (1.34 at 3, 1.44 at 5, 1.53 at 17, the middle two's mean at an even
    /// count a little less), and more for values with heavy tails or modes, where the median jumps
    /// between them. With the variance of a mean instead (1), three quick-suite runs back to back
    /// on the 2-core AMD VM had 10.1%, 6.7% and 13.6% of their figures outside the earlier run's
    /// 95% interval (pairs 1→2, 2→3, 1→3); with π/2, 6.0%, 3.2% and 6.9%.
    public static let medianVariance = Double.pi / 2

    /// - Parameters:
    ///   - values: one positive value per process.
    ///   - prior: the run's typical spread; with one process and no prior the interval is
    ///     unbounded, since nothing says how far a repeat may land.
    ///   - sittingSpread: σ above; 0 for a figure the machine's speed does not move (bytes).
    /// - Returns: nil when `values` is empty or holds a value that is not positive and finite
    ///   (a logarithm needs it; a zero figure, like zero system calls, has no spread to speak of).
    public init?(values: [Double], prior: SpreadPrior?, sittingSpread: Double = CaseEstimate.sittingSpread) {
        self.init(values: values, prior: prior, sittingSpread: sittingSpread, findingModes: true)
    }

    private init?(values: [Double], prior: SpreadPrior?, sittingSpread: Double, findingModes: Bool) {
        guard !values.isEmpty, values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        let logs = values.map { log($0) }
        let k = Double(logs.count)
        let own = Self.ownSpread(logarithms: logs)
        var variance = (own ?? 0) * (own ?? 0) * (k - 1)
        var freedom = k - 1
        if let prior {
            variance += prior.weight * prior.spread * prior.spread
            freedom += prior.weight
        }
        value = exp(SampleStatistics.percentile(logs.sorted(), 0.5))
        self.values = values.sorted()
        let groups = findingModes ? ProcessMode.groups(values) : []
        modes =
            groups.count < 2
            ? []
            : groups.map { group in
                ProcessMode(
                    estimate: CaseEstimate(
                        values: group, prior: prior, sittingSpread: sittingSpread, findingModes: false)!,
                    ofProcesses: values.count)
            }
        ownSpread = own
        degreesOfFreedom = freedom
        guard freedom > 0 else {
            spread = .infinity
            repeatInterval = RepeatInterval(lower: 0, upper: .infinity)
            comparisonInterval = repeatInterval
            return
        }
        spread = (variance / freedom).squareRoot()
        let t = StudentT.twoSidedCritical(tail: 1 - Self.level, degreesOfFreedom: freedom)
        let figureVariance = Self.medianVariance * spread * spread / k
        let half = t * (2 * figureVariance + 2 * sittingSpread * sittingSpread).squareRoot()
        repeatInterval = RepeatInterval(lower: value * exp(-half), upper: value * exp(half))
        let withinRun = t * (2 * spread * spread / k).squareRoot()
        comparisonInterval = RepeatInterval(lower: value * exp(-withinRun), upper: value * exp(withinRun))
    }
}

extension CaseEstimate {
    /// This estimate of a figure `factor` times as large (ns per iteration from ns per loop): the
    /// same processes and spread, the value and every bound multiplied.
    public func scaled(by factor: Double) -> CaseEstimate {
        CaseEstimate(
            value: value * factor, repeatInterval: repeatInterval.scaled(by: factor),
            comparisonInterval: comparisonInterval.scaled(by: factor), values: values.map { $0 * factor },
            spread: spread, ownSpread: ownSpread, degreesOfFreedom: degreesOfFreedom,
            modes: modes.map { ProcessMode(estimate: $0.estimate.scaled(by: factor), ofProcesses: $0.ofProcesses) })
    }

    private init(
        value: Double, repeatInterval: RepeatInterval, comparisonInterval: RepeatInterval, values: [Double],
        spread: Double, ownSpread: Double?, degreesOfFreedom: Double, modes: [ProcessMode]
    ) {
        self.value = value
        self.repeatInterval = repeatInterval
        self.comparisonInterval = comparisonInterval
        self.values = values
        self.spread = spread
        self.ownSpread = ownSpread
        self.degreesOfFreedom = degreesOfFreedom
        self.modes = modes
    }

    /// The standard deviation of `values`' logarithms (the spread of these processes alone), or
    /// nil with fewer than two values or one that is not positive and finite.
    public static func ownSpread(of values: [Double]) -> Double? {
        guard values.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        return ownSpread(logarithms: values.map { log($0) })
    }

    static func ownSpread(logarithms logs: [Double]) -> Double? {
        guard logs.count > 1 else { return nil }
        let mean = logs.reduce(0, +) / Double(logs.count)
        return (logs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(logs.count - 1)).squareRoot()
    }
}

/// Where a repeat run's figure should fall (`CaseEstimate.repeatInterval`).
public struct RepeatInterval: Sendable, Codable, Equatable {
    public let lower: Double
    public let upper: Double

    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    func scaled(by factor: Double) -> RepeatInterval { RepeatInterval(lower: lower * factor, upper: upper * factor) }

    public func contains(_ value: Double) -> Bool { (lower...upper).contains(value) }
}

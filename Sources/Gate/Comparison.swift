#if canImport(Glibc)
import Glibc
#endif

import Results

/// Every case and metric of a base run set against a new run: the change, its interval, whether
/// it is significant once corrected for the number of comparisons, and the verdict.
///
/// The rule, per case and metric (Sources/Gate/README.md):
/// 1. One value per process on each side (`ProcessValues`); at least 2 per side (2 pairs when
///    paired), or the row is not comparable.
/// 2. Yuen–Welch's t (unpaired) or Yuen's paired t on the logarithms (`ChangeEstimate`) gives a
///    p-value; Holm's correction over every tested row of the table adjusts it.
/// 3. Adjusted p ≥ α: no change, or undecided when the estimate moved beyond the limits.
///    |change| < minimum effect: no change. Faster: improvement. Slower: a regression only
///    beyond both the relative and the absolute limit.
public struct Comparison: Sendable {
    public enum Pairing: String, Sendable {
        /// Two runs made apart (`bench compare`, `bench check`).
        case unpaired
        /// Process i of the base ran next to process i of the new run (`bench ab`).
        case paired
    }

    public struct Row: Sendable {
        public let caseID: String
        /// The metric's name, or "all" / "processes" for a row about the whole case.
        public let metric: String
        /// The metric's description from the results files; nil for a whole-case row and for a
        /// metric neither file describes.
        public let described: Metric?
        public let limits: ResolvedLimits
        public let estimate: ChangeEstimate?
        /// Holm-adjusted p-value; nil when the row was not tested.
        public let adjustedPValue: Double?
        public let verdict: ChangeVerdict
        /// Processes (or pairs) on each side.
        public let baseCount: Int
        public let newCount: Int
    }

    public let pairing: Pairing
    /// In table order: regressions, improvements, not comparable, no change; then by case and metric.
    public let rows: [Row]
    /// How the machines differ, or nil when the fingerprints match.
    public let machineDifference: String?
    /// Set when only one run counted allocations (`--count-allocations`): that run's timings
    /// include the interposer's cost, so times, CPU time and events are not compared.
    public let countingDifference: String?
    /// Whether time and event metrics were compared despite `machineDifference` or `countingDifference`.
    public let forced: Bool
    /// Case and metric pairs a thresholds entry with `"compare": false` left out.
    public let excluded: Int
    /// Case and metric pairs neither run measured (e.g. cycles without a PMU): not listed.
    public let unmeasured: Int
    /// Cases not applicable in both runs (e.g. a workload a backend does not offer): not listed.
    public let notApplicableInBoth: Int
    /// The looks of a sequential `bench ab`, whose p-values the rows were tested on; nil for a
    /// comparison of fixed runs.
    public let sequential: SequentialRecord?

    public var regressions: [Row] { rows.filter { $0.verdict == .regression } }
    /// The rows that fail the gate: regressions and new failures.
    public var failing: [Row] { rows.filter(\.verdict.fails) }
    public func count(_ kind: ChangeVerdict.Kind) -> Int { rows.filter { $0.verdict.kind == kind }.count }

    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// - Parameter sequential: the looks that decided the pairs (`bench ab --budget`): each row is
    ///   tested on its p-value over those looks (`SequentialRecord.pValue`), not on the last one's.
    /// - Throws: `Problem` when the two runs have no case in common.
    public init(
        base: RunResults, new: RunResults, thresholds: Thresholds = Thresholds(), pairing: Pairing = .unpaired,
        force: Bool = false, sequential: SequentialRecord? = nil
    ) throws(Problem) {
        let baseCases = Dictionary(
            base.cases.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newCases = Dictionary(new.cases.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { first, _ in first })
        let common = base.cases.map(\.benchmarkCase.id).filter { newCases[$0] != nil }
        guard !common.isEmpty else {
            throw Problem(
                description: "the two runs have no case in common (\(base.cases.count) cases in the base, "
                    + "\(new.cases.count) in the new run)")
        }
        let difference = MachineFingerprint(base.environment).differences(from: MachineFingerprint(new.environment))
        let catalogue = MetricCatalogue(new).merged(with: MetricCatalogue(base))
        let time = Metric.nanosecondsPerOperation
        self.pairing = pairing
        machineDifference = difference
        let counting =
            (base.countedAllocations == true) == (new.countedAllocations == true)
            ? nil
            : "allocations were counted in the \(base.countedAllocations == true ? "base" : "new run") only, "
                + "so its timings include the interposer's cost"
        countingDifference = counting
        forced = force
        self.sequential = sequential

        struct Pending {
            let caseID, metric: String; let described: Metric?; let limits: ResolvedLimits;
            let estimate: ChangeEstimate?
            let verdict: ChangeVerdict?; let baseCount, newCount: Int
        }
        var pending: [Pending] = []
        var excluded = 0, unmeasured = 0, notApplicableInBoth = 0
        for id in base.cases.map(\.benchmarkCase.id) where newCases[id] == nil {
            let limits = thresholds.limits(caseID: id, workload: baseCases[id]!.benchmarkCase.workload, metric: time)
            pending.append(
                Pending(
                    caseID: id, metric: "all", described: nil, limits: limits, estimate: nil,
                    verdict: .notComparable("only in the base run"), baseCount: baseCases[id]!.records.count,
                    newCount: 0))
        }
        for id in new.cases.map(\.benchmarkCase.id) where baseCases[id] == nil {
            let limits = thresholds.limits(caseID: id, workload: newCases[id]!.benchmarkCase.workload, metric: time)
            pending.append(
                Pending(
                    caseID: id, metric: "all", described: nil, limits: limits, estimate: nil,
                    verdict: .notComparable("only in the new run"), baseCount: 0, newCount: newCases[id]!.records.count)
            )
        }
        for id in common {
            let baseCase = baseCases[id]!, newCase = newCases[id]!
            let workload = baseCase.benchmarkCase.workload
            if !newCase.failures.isEmpty && baseCase.failures.isEmpty && baseCase.notApplicable == nil {
                // The new build broke the case: worse than any slowdown, and no test is needed.
                let limits = thresholds.limits(caseID: id, workload: workload, metric: time)
                let total = newCase.failures.count + newCase.records.count
                pending.append(
                    Pending(
                        caseID: id, metric: "processes", described: nil, limits: limits, estimate: nil,
                        verdict: .newFailure(
                            "\(newCase.failures.count) of \(total) processes failed in the new run, "
                                + "none in the base: \(newCase.failures[0])"),
                        baseCount: baseCase.records.count, newCount: newCase.records.count))
            }
            let baseMetrics = ProcessValues.metrics(of: baseCase)
            let metrics = baseMetrics + ProcessValues.metrics(of: newCase).filter { !baseMetrics.contains($0) }
            for metric in metrics {
                let baseValues = ProcessValues(baseCase, metric: metric),
                    newValues = ProcessValues(newCase, metric: metric)
                guard let described = catalogue[metric] else {
                    // Its kind decides its limits and whether it compares across machines: a
                    // guess could gate a timing-driven event as tightly as an allocation count.
                    let limits = thresholds.limits(caseID: id, workload: workload, metric: time)
                    pending.append(
                        Pending(
                            caseID: id, metric: metric, described: nil, limits: limits, estimate: nil,
                            verdict: .notComparable(MetricCatalogue.undescribed(metric)),
                            baseCount: baseValues.byRepetition.count, newCount: newValues.byRepetition.count))
                    continue
                }
                let limits = thresholds.limits(caseID: id, workload: workload, metric: described)
                guard limits.compare else { excluded += 1; continue }
                func row(_ verdict: ChangeVerdict?, _ estimate: ChangeEstimate? = nil) -> Pending {
                    Pending(
                        caseID: id, metric: metric, described: described, limits: limits, estimate: estimate,
                        verdict: verdict,
                        baseCount: baseValues.byRepetition.count, newCount: newValues.byRepetition.count)
                }
                if baseCase.notApplicable != nil && newCase.notApplicable != nil {
                    if metric == time.name { notApplicableInBoth += 1 }
                    continue
                }
                if let reason = baseCase.notApplicable ?? newCase.notApplicable {
                    if metric == time.name { pending.append(row(.notComparable("not applicable: \(reason)"))) }
                    continue
                }
                if baseValues.byRepetition.isEmpty && newValues.byRepetition.isEmpty {
                    if metric == time.name {
                        pending.append(
                            row(
                                .notComparable(
                                    "no process finished in either run: "
                                        + "\(baseCase.failures.first ?? newCase.failures.first ?? "no record")")))
                    } else {
                        unmeasured += 1
                    }
                    continue
                }
                if let difference, described.kind.dependsOnMachine, !force {
                    pending.append(
                        row(.notComparable("measured on another machine (\(difference)); --force compares anyway")))
                    continue
                }
                // Counts do not depend on timing; everything that does moved with the interposer.
                if let counting, described.kind.dependsOnMachine, !force {
                    pending.append(row(.notComparable("\(counting); --force compares anyway")))
                    continue
                }
                if baseValues.byRepetition.isEmpty || newValues.byRepetition.isEmpty {
                    let (side, values, result) =
                        baseValues.byRepetition.isEmpty
                        ? ("base", baseValues, baseCase) : ("new run", newValues, newCase)
                    pending.append(
                        row(
                            .notComparable(
                                "no value in the \(side): "
                                    + "\(values.unavailable ?? result.failures.first ?? "no process finished")")))
                    continue
                }
                let estimate: ChangeEstimate? =
                    switch pairing {
                    case .unpaired: ChangeEstimate.unpaired(base: baseValues.values, new: newValues.values)
                    case .paired: ChangeEstimate.paired(base: baseValues.byRepetition, new: newValues.byRepetition)
                    }
                guard let estimate else {
                    let need = pairing == .paired ? "2 pairs of processes" : "2 processes on each side"
                    pending.append(
                        row(
                            .notComparable(
                                "a test needs at least \(need); base has \(baseValues.byRepetition.count), "
                                    + "new has \(newValues.byRepetition.count)")))
                    continue
                }
                pending.append(row(nil, estimate))
            }
        }
        let tested = pending.indices.filter { pending[$0].verdict == nil }
        let adjusted = HolmCorrection.adjust(
            tested.map {
                sequential?.pValue(caseID: pending[$0].caseID, metric: pending[$0].metric)
                    ?? pending[$0].estimate!.pValue
            })
        var adjustedByIndex: [Int: Double] = [:]
        for (position, index) in tested.enumerated() { adjustedByIndex[index] = adjusted[position] }

        rows = pending.indices.map { index in
            let item = pending[index]
            let adjustedP = adjustedByIndex[index]
            let verdict =
                item.verdict
                ?? Self.decide(item.estimate!, adjustedPValue: adjustedP!, limits: item.limits, metric: item.described!)
            return Row(
                caseID: item.caseID, metric: item.metric, described: item.described, limits: item.limits,
                estimate: item.estimate, adjustedPValue: adjustedP, verdict: verdict,
                baseCount: item.baseCount, newCount: item.newCount)
        }.sorted { ($0.verdict.order, $0.caseID, $0.metric) < ($1.verdict.order, $1.caseID, $1.metric) }
        self.excluded = excluded
        self.unmeasured = unmeasured
        self.notApplicableInBoth = notApplicableInBoth
    }

    /// The decision rule's step 3, for one tested row.
    public static func decide(
        _ estimate: ChangeEstimate, adjustedPValue: Double, limits: ResolvedLimits, metric: Metric
    ) -> ChangeVerdict {
        // Oriented so that positive is worse: for a higher-is-better metric a fall is the regression.
        let worse: Double = metric.polarity == .lowerIsBetter ? 1 : -1
        let absolute = worse * estimate.absoluteChange
        let change =
            estimate.relativeChange
            ?? (estimate.absoluteChange > 0 ? .infinity : estimate.absoluteChange < 0 ? -.infinity : 0)
        let relative = worse * change
        guard adjustedPValue < limits.significanceLevel else {
            let notSignificant =
                "not significant: adjusted p = \(Figures.value(adjustedPValue)) ≥ α = "
                + "\(Figures.value(limits.significanceLevel))"
            // A move beyond the limits, either way, that the test cannot tell from the spread: the
            // runs were too small to decide, which "no change" would hide.
            let beyondLimits =
                abs(relative) >= limits.minimumEffect && abs(relative) > limits.maximumRelativeRegression
                && abs(absolute) > limits.maximumAbsoluteRegression
            guard !beyondLimits else {
                return .undecided(
                    "\(percent(change)), but \(notSignificant): too few processes to tell it from "
                        + "their spread; more decide")
            }
            return .noChange(notSignificant)
        }
        guard abs(relative) >= limits.minimumEffect else {
            return .noChange("below the minimum effect: \(percent(change)) within ±\(percent(limits.minimumEffect))")
        }
        guard relative > 0 else { return .improvement }
        let unit = metric.unit.thresholdSpelling
        if relative <= limits.maximumRelativeRegression {
            return .noChange("within the limit: \(percent(relative)) ≤ \(percent(limits.maximumRelativeRegression))")
        }
        if absolute <= limits.maximumAbsoluteRegression {
            return .noChange(
                "within the limit: +\(Figures.value(absolute)) \(unit) ≤ "
                    + "\(Figures.value(limits.maximumAbsoluteRegression)) \(unit)")
        }
        return .regression
    }

    /// "+12.3%", "−4.0%", "+∞".
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return fraction > 0 ? "+∞" : "−∞" }
        let tenths = (fraction * 1000).rounded() / 10
        return (tenths > 0 ? "+" : tenths < 0 ? "−" : "±") + "\(abs(tenths))%"
    }
}

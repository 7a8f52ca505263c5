import Results

import FoundationEssentials

/// The limits a comparison applies to one case and metric. Each field is optional in the file;
/// what is missing comes from the built-in defaults of the metric's kind.
public struct Limits: Sendable, Codable, Equatable {
    /// α: a change counts only when its Holm-adjusted p-value is below this.
    public var significanceLevel: Double?
    /// A significant change smaller than this (relative, 0.03 = 3%) is "no change", in either
    /// direction: it is too small to be worth a verdict.
    public var minimumEffect: Double?
    /// The largest relative slowdown tolerated; a regression must exceed it ...
    public var maximumRelativeRegression: Double?
    /// ... and this absolute one, in the metric's unit per operation (ns, allocations, bytes), so
    /// a 5% change of a 2 ns operation (0.1 ns, code alignment) does not fail a build.
    public var maximumAbsoluteRegression: Double?
    /// false: the metric is not compared at all (e.g. the CI smoke check, which compares only
    /// what does not depend on timing).
    public var compare: Bool?

    public init(
        significanceLevel: Double? = nil, minimumEffect: Double? = nil, maximumRelativeRegression: Double? = nil,
        maximumAbsoluteRegression: Double? = nil, compare: Bool? = nil
    ) {
        self.significanceLevel = significanceLevel
        self.minimumEffect = minimumEffect
        self.maximumRelativeRegression = maximumRelativeRegression
        self.maximumAbsoluteRegression = maximumAbsoluteRegression
        self.compare = compare
    }

    /// These limits with every field `other` sets replaced by its value.
    func overridden(by other: Limits) -> Limits {
        Limits(
            significanceLevel: other.significanceLevel ?? significanceLevel,
            minimumEffect: other.minimumEffect ?? minimumEffect,
            maximumRelativeRegression: other.maximumRelativeRegression ?? maximumRelativeRegression,
            maximumAbsoluteRegression: other.maximumAbsoluteRegression ?? maximumAbsoluteRegression,
            compare: other.compare ?? compare)
    }

    static let fields = [
        "significanceLevel", "minimumEffect", "maximumRelativeRegression", "maximumAbsoluteRegression", "compare",
    ]
}

/// Limits with every field decided: what a comparison applies.
public struct ResolvedLimits: Sendable, Equatable {
    public let significanceLevel: Double
    public let minimumEffect: Double
    public let maximumRelativeRegression: Double
    public let maximumAbsoluteRegression: Double
    public let compare: Bool
}

/// The thresholds file: defaults per metric kind and overrides per workload, case and metric.
/// JSON, versioned by `schema`; Sources/Gate/README.md documents every field.
public struct Thresholds: Sendable, Equatable {
    public static let currentSchema = 1

    public var defaults: [MetricKind: Limits]
    public var overrides: [Override]

    /// Built in, and what a file's fields are laid over. Times are loose (this machine's noise
    /// between processes is several percent); counts that do not depend on timing are tight (one
    /// allocation more per operation is a regression however fast the machine); CPU time and
    /// timing-driven events are not compared unless a file turns them on (`"compare": true`).
    public static let builtIn: [MetricKind: ResolvedLimits] = [
        .time: ResolvedLimits(
            significanceLevel: 0.01, minimumEffect: 0.03, maximumRelativeRegression: 0.05,
            maximumAbsoluteRegression: 0.25, compare: true),
        .count: ResolvedLimits(
            significanceLevel: 0.01, minimumEffect: 0.01, maximumRelativeRegression: 0.01,
            maximumAbsoluteRegression: 0.05, compare: true),
        .cpu: ResolvedLimits(
            significanceLevel: 0.01, minimumEffect: 0.03, maximumRelativeRegression: 0.05,
            maximumAbsoluteRegression: 0.25, compare: false),
        .event: ResolvedLimits(
            significanceLevel: 0.01, minimumEffect: 0.10, maximumRelativeRegression: 0.25,
            maximumAbsoluteRegression: 0.1, compare: false),
    ]

    /// Built-in absolute limits for units that make their kind's absolute limit meaningless:
    /// 0.05 bytes per operation would flag any noise, so bytes get 16 (a small allocation).
    /// Applied after the kind's built-in limits and before anything from a file.
    public static let builtInAbsoluteByUnit: [MetricUnit: Double] = [.bytes: 16]

    public init(defaults: [MetricKind: Limits] = [:], overrides: [Override] = []) {
        self.defaults = defaults
        self.overrides = overrides
    }

    /// The limits for `metric` of the case `caseID` (of `workload`): the kind's built-in limits,
    /// the built-in overrides, then the file's defaults for the kind, then every matching override
    /// in file order.
    public func limits(caseID: String, workload: String, metric: Metric) -> ResolvedLimits {
        let kind = metric.kind
        let builtIn = Self.builtIn[kind]!
        var limits = Limits(
            significanceLevel: builtIn.significanceLevel, minimumEffect: builtIn.minimumEffect,
            maximumRelativeRegression: builtIn.maximumRelativeRegression,
            maximumAbsoluteRegression: builtIn.maximumAbsoluteRegression, compare: builtIn.compare)
        if let absolute = Self.builtInAbsoluteByUnit[metric.unit] {
            limits = limits.overridden(by: Limits(maximumAbsoluteRegression: absolute))
        }
        if let fileDefaults = defaults[kind] { limits = limits.overridden(by: fileDefaults) }
        for override in overrides where override.matches(caseID: caseID, workload: workload, metric: metric) {
            limits = limits.overridden(by: override.limits)
        }
        return ResolvedLimits(
            significanceLevel: limits.significanceLevel!, minimumEffect: limits.minimumEffect!,
            maximumRelativeRegression: limits.maximumRelativeRegression!,
            maximumAbsoluteRegression: limits.maximumAbsoluteRegression!, compare: limits.compare!)
    }

    /// One override: which cases and metrics it applies to (every given selector must match) and
    /// the limits it sets.
    public struct Override: Sendable, Equatable {
        /// A workload name, exactly.
        public var workload: String?
        /// A regular expression searched for in the case id.
        public var casePattern: String?
        /// A metric name ("ns-per-op", "jemalloc.arena-requests") or a kind ("time", "cpu", "count", "event").
        public var metric: String?
        public var limits: Limits

        public init(workload: String? = nil, casePattern: String? = nil, metric: String? = nil, limits: Limits) {
            self.workload = workload
            self.casePattern = casePattern
            self.metric = metric
            self.limits = limits
        }

        func matches(caseID: String, workload: String, metric: Metric) -> Bool {
            if let wanted = self.workload, wanted != workload { return false }
            if let wanted = self.metric, wanted != metric.name, wanted != metric.kind.rawValue { return false }
            if let casePattern {
                // Checked when the file was read: it compiles.
                guard let regex = try? Regex(casePattern), (try? regex.firstMatch(in: caseID)) != nil else {
                    return false
                }
            }
            return true
        }
    }
}

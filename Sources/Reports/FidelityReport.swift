import Fidelity
import FoundationEssentials
import Results

/// The fidelity rows as they read: report.md's "How faithful are these figures?", the columns of
/// `bench fidelity`, and its `--json` rows.
public enum FidelityReport {
    /// The columns of a row as text: operation, backend, allocator, layer, suite, direct, ratio,
    /// verdict, and the bytes each allocates per operation where jemalloc measured them.
    public static let header = [
        "operation", "backend", "allocator", "direct layer", "suite ns", "direct ns", "ratio", "verdict",
        "suite B/op", "direct B/op",
    ]
    /// The columns that hold numbers (right-aligned).
    public static let numericColumns: Set<Int> = [4, 5, 6, 8, 9]

    public static func cells(_ row: FidelityRow) -> [String] {
        let pair = row.pair
        return [
            pair.operation + " (per \(pair.unit))", pair.backend, pair.directCase.allocator.rawValue,
            pair.layer.rawValue,
            row.suiteNanoseconds.map(Figures.value) ?? "—", row.directNanoseconds.map(Figures.value) ?? "—",
            row.ratio.map(Figures.ratio) ?? "—", verdict(row),
            row.suiteAllocatedBytes.map(Figures.value) ?? "—", row.directAllocatedBytes.map(Figures.value) ?? "—",
        ]
    }

    public static func verdict(_ row: FidelityRow) -> String {
        var verdict: String
        switch row.standing {
        case .noFigure: return "no verdict: \(row.missing ?? "a figure is missing")"
        case .within:
            // A ratio outside 0.8–1.25× that the slack lets through says so, lest "1.54×" read as a slip.
            let bound = row.bound
            verdict =
                bound.ratioAllows(row.ratio!)
                ? "within bound"
                : "within bound: \(Figures.value(abs(row.suite!.value - row.direct!.value))) ns apart, "
                    + "inside the \(Figures.value(bound.slackNanoseconds)) ns slack"
        case .over: verdict = "over bound (limit \(Figures.value(row.limit!)) ns)"
        case .under: verdict = "under bound (floor \(Figures.value(row.floor!)) ns): the reference pays for more"
        case .unclear:
            let suite = row.suite!.interval, direct = row.direct!.interval
            let spread =
                suite.upper.isFinite && direct.upper.isFinite
                ? "intervals \(Figures.interval(suite)) and \(Figures.interval(direct)) ns"
                : "one process a side bounds nothing"
            let passed =
                row.suite!.value > row.direct!.value
                ? "over the limit (\(Figures.value(row.limit!)) ns)"
                : "under the floor (\(Figures.value(row.floor!)) ns)"
            verdict = "unclear: figure \(passed), \(spread); more --repetitions decide"
        }
        if row.allocatesNoMore == false { verdict += "; allocates more than its reference" }
        return verdict
    }

    /// report.md's section; nil when the run has no `direct` case with its pair.
    static func markdownLines(_ rows: [FidelityRow]) -> [String]? {
        guard let bound = rows.first?.bound else { return nil }
        var table = MarkdownTable(header.enumerated().map { ($1, numericColumns.contains($0) ? .right : .left) })
        table.rows = rows.map(cells)
        let within = rows.filter(\.withinBound).count
        let unclear = rows.filter { $0.standing == .unclear }.count
        let under = rows.filter { $0.standing == .under }.count
        return [
            "## How faithful are these figures?", "",
            "Each suite figure below is set beside the same operation written directly against the runtime "
                + "(the `direct` workload), measured in this run: C for a C API, idiomatic Swift for a Swift API, "
                + "the concrete type for our own backends. A suite figure counts as the runtime's when it is "
                + "\(bound). \(within) of \(rows.count) rows are"
                + (unclear > 0 ? "; \(unclear) unclear (their processes disagree)" : "")
                + (under > 0 ? "; \(under) under the bound (the reference pays for something the suite does not)" : "")
                + ". A row is over (or under) the bound only when the suite's interval lies wholly above (below) "
                + "the bound of the direct one's (both from the spread between processes; the run's own drift moves "
                + "both alike and is left out). The bound is two-sided: a reference slower than the suite "
                + "validates nothing. In a `bench run`, a row's two cases run minutes apart, "
                + "each in its workload's turn, "
                + "so the machine's drift between them reads as a difference; "
                + "`bench fidelity` runs each pair back to back in every repetition and is the check to trust. "
                + "Where the direct layer is idiomatic Swift, its gap to the C row of the same operation is the "
                + "Swift overlay's own cost, not the suite's. B/op: bytes the measuring thread allocated per "
                + "operation (jemalloc only).", "",
        ]
            + table.lines
    }

    /// One JSON object per row: operation, backend, allocator, layer, suite case, direct case, unit,
    /// suite_ns, direct_ns, ratio, limit_ns and floor_ns (null where a figure is missing), within_bound (the
    /// suite's figure within the bound), standing (within bound, over bound, under bound, unclear, no figure),
    /// the two figures' intervals (null where one process bounds nothing), the
    /// bytes allocated per operation on each side and whether the suite allocates no more (null
    /// without jemalloc), and why a figure is missing.
    /// An interval as [lower, upper], or nil when it is unbounded (one process).
    static func bounds(_ figure: FidelityRow.Figure) -> [Double]? {
        figure.interval.upper.isFinite ? [figure.interval.lower, figure.interval.upper] : nil
    }

    public static func json(_ rows: [FidelityRow]) throws -> String {
        struct Row: Encodable {
            let operation: String, backend: String, layer: String, unit: String
            let suite_case: String, direct_case: String
            let allocator: String
            let suite_ns: Double?, direct_ns: Double?, ratio: Double?, limit_ns: Double?, floor_ns: Double?
            let within_bound: Bool
            let standing: String
            let suite_interval_ns: [Double]?, direct_interval_ns: [Double]?
            let suite_allocated_bytes: Double?, direct_allocated_bytes: Double?
            let allocates_no_more: Bool?
            let missing: String?
        }
        struct Document: Encodable {
            let bound: String
            let rows: [Row]
        }
        let document = Document(
            bound: rows.first?.bound.description ?? FidelityBound.standard.description,
            rows: rows.map {
                Row(
                    operation: $0.pair.operation, backend: $0.pair.backend, layer: $0.pair.layer.rawValue,
                    unit: $0.pair.unit,
                    suite_case: $0.pair.suiteCase.id, direct_case: $0.pair.directCase.id,
                    allocator: $0.pair.directCase.allocator.rawValue,
                    suite_ns: $0.suiteNanoseconds, direct_ns: $0.directNanoseconds, ratio: $0.ratio, limit_ns: $0.limit,
                    floor_ns: $0.floor,
                    within_bound: $0.withinBound, standing: $0.standing.rawValue,
                    suite_interval_ns: $0.suite.flatMap(Self.bounds),
                    direct_interval_ns: $0.direct.flatMap(Self.bounds),
                    suite_allocated_bytes: $0.suiteAllocatedBytes, direct_allocated_bytes: $0.directAllocatedBytes,
                    allocates_no_more: $0.allocatesNoMore, missing: $0.missing)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }
}

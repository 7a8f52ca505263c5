import Gate
import Results

/// A `Comparison` as text for a terminal or a CI log, and as Markdown for a pull-request
/// comment: a summary line, then the rows, regressions first.
public enum ComparisonReport {
    /// Which rows to list: every one, or all but "no change" (which the summary counts).
    public enum Detail: Sendable { case all, changes }

    public static func summary(_ comparison: Comparison) -> String {
        // "new failure" and "undecided" only when there is one: most comparisons have none.
        let kinds: [ChangeVerdict.Kind] =
            (comparison.count(.newFailure) > 0 ? [.regression, .newFailure] : [.regression])
            + [.improvement, .noChange] + (comparison.count(.undecided) > 0 ? [.undecided] : []) + [.notComparable]
        let counts = kinds.map { kind -> String in
            let count = comparison.count(kind)
            let plural = count != 1 && [.regression, .newFailure, .improvement].contains(kind)
            return "\(count) \(kind.rawValue)\(plural ? "s" : "")"
        }
        let how =
            comparison.pairing == .paired
            ? "Yuen's trimmed t on pairs' log-ratios" : "Yuen–Welch trimmed t on logarithms of per-process values"
        return counts.joined(separator: ", ") + " (\(comparison.rows.count) rows; \(how), Holm-corrected)"
    }

    /// Lines about the comparison as a whole: another machine, forced, left out.
    public static func notes(_ comparison: Comparison) -> [String] {
        var notes: [String] = []
        if let sequential = comparison.sequential { notes.append(sequential.summary) }
        if let difference = comparison.machineDifference {
            notes.append(
                comparison.forced
                    ? "The runs were measured on different machines (\(difference)); "
                        + "times were compared anyway (--force)."
                    : "The runs were measured on different machines (\(difference)): "
                        + "times and events are not comparable; counts (allocations, instructions) are compared. "
                        + "--force compares everything.")
        }
        if let counting = comparison.countingDifference {
            notes.append(
                comparison.forced
                    ? "The runs did not measure alike (\(counting)); times were compared anyway (--force)."
                    : "The runs did not measure alike: \(counting). Times, CPU time and events are not compared; "
                        + "counts are. --force compares everything.")
        }
        if comparison.excluded > 0 {
            notes.append(
                "\(comparison.excluded) case/metric pairs not compared: CPU time and events are off unless a "
                    + "thresholds file turns them on, and a thresholds entry with \"compare\": "
                    + "false leaves out what it selects.")
        }
        if comparison.count(.undecided) > 0 {
            let fewest =
                comparison.rows.filter { $0.verdict.kind == .undecided }.map { min($0.baseCount, $0.newCount) }.min()
                ?? 0
            notes.append(
                "\(rows(comparison.count(.undecided))) moved beyond the limits, but the runs are too small to tell "
                    + "that from their spread (as few as \(fewest) process\(fewest == 1 ? "" : "es") a side): "
                    + "run again with more --repetitions (or --pairs) to decide them.")
        }
        if comparison.notApplicableInBoth > 0 {
            notes.append(
                "\(comparison.notApplicableInBoth) case\(comparison.notApplicableInBoth == 1 ? "" : "s") not "
                    + "applicable in both runs (e.g. a workload a backend does not offer) not listed.")
        }
        if comparison.unmeasured > 0 {
            notes.append(
                "\(comparison.unmeasured) case/metric pairs measured in neither run "
                    + "(e.g. hardware counters without a PMU) are not listed.")
        }
        return notes
    }

    /// "1 row", "3 rows".
    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    static let header = ["verdict", "case", "metric", "base", "new", "change", "95% CI", "adj. p", "n", "why"]

    static func cells(_ row: Comparison.Row) -> [String] {
        let unit = row.described?.unit.thresholdSpelling ?? ""
        let estimate = row.estimate
        return [
            row.verdict.name, row.caseID, row.metric,
            estimate.map { Figures.value($0.base) + " " + unit } ?? "—",
            estimate.map { Figures.value($0.new) + " " + unit } ?? "—",
            estimate.map { $0.relativeChange.map(Comparison.percent) ?? "\(Figures.value($0.absoluteChange)) \(unit)" }
                ?? "—",
            estimate?.relativeInterval.map { "\(Comparison.percent($0.lower)) … \(Comparison.percent($0.upper))" }
                ?? "—",
            row.adjustedPValue.map(Figures.value) ?? "—",
            "\(row.baseCount)/\(row.newCount)",
            row.verdict.reason ?? "",
        ]
    }

    static func listed(_ comparison: Comparison, _ detail: Detail) -> [Comparison.Row] {
        detail == .all ? comparison.rows : comparison.rows.filter { $0.verdict.kind != .noChange }
    }

    /// The width a CI log shows without wrapping: the text form keeps to it.
    public static let logWidth = 100

    /// Plain text for a terminal or a CI log, within `logWidth` columns but for a case id longer
    /// than that: a block per row, the verdict and the case on the first line (what scripts grep),
    /// the metric and its figures on the next, the reason wrapped below.
    public static func text(_ comparison: Comparison, detail: Detail) -> String {
        let listed = listed(comparison, detail)
        var lines = wrap(summary(comparison), indent: "") + notes(comparison).flatMap { wrap($0, indent: "") }
        if listed.isEmpty {
            lines.append(
                "No row to list" + (detail == .changes ? " beyond \"no change\" (--all lists every row)." : "."))
        } else {
            let verdictWidth = listed.map(\.verdict.name.count).max()!
            let indent = String(repeating: " ", count: verdictWidth + 2)
            lines.append("")
            for row in listed {
                let cells = cells(row)
                lines += caseLines(
                    row.verdict.name + String(repeating: " ", count: verdictWidth - row.verdict.name.count) + "  ",
                    row.caseID, indent: indent)
                var figures = row.metric
                if row.estimate != nil {
                    figures += ": \(cells[3]) → \(cells[4]), \(cells[5])"
                    if cells[6] != "—" { figures += " (95% CI \(cells[6]))" }
                }
                if let p = row.adjustedPValue { figures += ", adj. p \(Figures.value(p))" }
                figures += ", n \(cells[8])"
                lines += wrap(figures, indent: indent)
                if let reason = row.verdict.reason { lines += wrap("why: " + reason, indent: indent) }
            }
            if detail == .changes, comparison.count(.noChange) > 0 {
                lines.append("(\(Self.rows(comparison.count(.noChange))) with no change not listed; --all lists them)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The verdict and the case id; an id too long for the line is broken after a "," or "/" and
    /// continued under itself (the queue-vs-lock ids reach 103 characters).
    static func caseLines(_ lead: String, _ id: String, indent: String) -> [String] {
        var lines: [String] = [], rest = Substring(id), start = lead
        while start.count + rest.count > logWidth {
            let room = logWidth - start.count
            guard let cut = rest.prefix(room).lastIndex(where: { $0 == "," || $0 == "/" }) else { break }
            lines.append(start + rest[...cut])
            rest = rest[rest.index(after: cut)...]
            start = indent
        }
        return lines + [start + rest]
    }

    /// `text` in lines of at most `logWidth` columns, each starting with `indent`; a word longer
    /// than a line stays whole.
    static func wrap(_ text: String, indent: String) -> [String] {
        var lines: [String] = [], line = indent
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if line.count > indent.count && line.count + 1 + word.count > logWidth {
                lines.append(line)
                line = indent + word
            } else {
                line += (line.count > indent.count ? " " : "") + word
            }
        }
        return lines + [line]
    }

    /// Markdown for a pull-request comment: the verdict in the first line, the changes in a table,
    /// the unchanged rows folded away.
    public static func markdown(_ comparison: Comparison, title: String = "RuntimeBench regression gate") -> String {
        let regressions = comparison.count(.regression), failures = comparison.count(.newFailure)
        var verdict =
            regressions == 0 ? "no regression" : regressions == 1 ? "1 regression" : "\(regressions) regressions"
        if failures > 0 { verdict += failures == 1 ? ", 1 new failure" : ", \(failures) new failures" }
        var lines = ["### \(title): \(verdict)", "", summary(comparison) + "."]
        let notes = notes(comparison)
        if !notes.isEmpty { lines += [""] + notes.map { "- " + $0 } }
        func table(_ rows: [Comparison.Row]) -> [String] {
            var table = MarkdownTable(header.enumerated().map { ($1, [3, 4, 5, 7].contains($0) ? .right : .left) })
            table.rows = rows.map(cells).map { cells in cells.enumerated().map { $0 == 1 ? "`\($1)`" : $1 } }
            return table.lines
        }
        let changes = comparison.rows.filter { $0.verdict.kind != .noChange }
        if !changes.isEmpty { lines += [""] + table(changes) }
        let unchanged = comparison.rows.filter { $0.verdict.kind == .noChange }
        if !unchanged.isEmpty {
            lines +=
                ["", "<details><summary>\(rows(unchanged.count)) with no change</summary>", ""] + table(unchanged) + [
                    "", "</details>",
                ]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

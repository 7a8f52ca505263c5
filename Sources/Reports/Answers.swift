import Claims
import Results

/// "What should I use?", computed from the run: per family, which contender is clearly best
/// (fastest, or smallest where the family ranks by memory) in how many parameter sets and by how
/// much over the runner-up, and where it is a tie. Under the system allocator only (the allocator
/// is a separate question, answered by `allocatorLine`).
struct Answers {
    struct FamilyAnswer {
        let workload: String
        let ranking: Ranking
        /// Parameter sets with at least two measured contenders.
        let compared: Int
        /// Contender → the sets it clearly won: each one's title and margin (runner-up / fastest).
        let wins: [(contender: String, sets: [(title: String, margin: Double)])]
        /// The sets without a clear best, grouped by who leads together (every contender that
        /// leads with the best, `Standing.leads`), most frequent first.
        let ties: [(leaders: [String], sets: Int)]

        var tieCount: Int { ties.reduce(0) { $0 + $1.sets } }
    }

    let families: [FamilyAnswer]

    init(_ families: [Family]) {
        self.families = families.compactMap { family in
            var wins: [String: [(title: String, margin: Double)]] = [:]
            var order: [String] = []
            var compared = 0
            var ties: [[String]: Int] = [:]
            var tieOrder: [[String]] = []
            for set in family.parameterSets {
                let standing = Standing(set.cases.filter { $0.benchmarkCase.allocator == .system })
                guard standing.ranked.count >= 2, let margin = standing.margin else { continue }
                compared += 1
                guard standing.isClear else {
                    let leaders =
                        [standing.ranked[0]]
                        + standing.ranked.dropFirst().filter { standing.leadsWithBest($0.estimate) }
                    // In the run's order, not by figure: the same contenders leading together in
                    // two sets are one group, whichever of them came first in each.
                    let ids = Set(leaders.map(\.measured.benchmarkCase.id))
                    let names = set.cases.filter { ids.contains($0.benchmarkCase.id) }.map {
                        family.contender($0.benchmarkCase)
                    }
                    if ties[names] == nil { tieOrder.append(names) }
                    ties[names, default: 0] += 1
                    continue
                }
                let winner = family.contender(standing.ranked[0].measured.benchmarkCase)
                if wins[winner] == nil { order.append(winner) }
                wins[winner, default: []].append((set.title, margin))
            }
            guard compared > 0 else { return nil }
            let ranked = order.map { ($0, wins[$0]!) }.sorted { $0.1.count > $1.1.count }
            let tied = tieOrder.map { ($0, ties[$0]!) }.sorted { $0.1 > $1.1 }
            return FamilyAnswer(
                workload: family.workload, ranking: family.ranking, compared: compared, wins: ranked, ties: tied)
        }
    }

    /// One bullet per family, e.g. "**spawn** (4 parameter sets): work-stealing is clearly
    /// fastest in 3, by 1.52×–4.1× over the runner-up; a tie in 1 (work-stealing and
    /// fifo-dispatch lead together)"; "**group** (3 parameter sets): fifo-dispatch is clearly
    /// fastest in 1 (pattern=fan-out), by 1.58× over the runner-up; …"."
    var markdownLines: [String] {
        families.map { answer in
            var parts: [String] = []
            for (index, win) in answer.wins.enumerated() {
                let margins = win.sets.map(\.margin)
                let low = Figures.ratio(margins.min()!), high = Figures.ratio(margins.max()!)
                let by = low == high ? "by \(low)" : "by \(low)–\(high)"
                // A win or two is named: "clearly fastest in 1" left a reader searching the
                // tables for which set it was.
                let which =
                    win.sets.count <= Self.winsNamed
                    ? "\(win.sets.count) (\(win.sets.map(\.title).joined(separator: " and ")))" : "\(win.sets.count)"
                parts.append(
                    index == 0
                        ? "\(win.contender) is clearly \(answer.ranking.best) in \(which), \(by) over the runner-up"
                        : "\(win.contender) in \(which), \(by)")
            }
            if answer.tieCount > 0 {
                let shown = answer.ties.prefix(Self.tieGroupsShown)
                // Groups apart by semicolons: their names are listed with commas, and "a, b and 6
                // others lead together in 8, a, b and 4 others …" left a reader unsure where one
                // group ended.
                var who = shown.map { tie in
                    Self.leaders(tie.leaders) + " lead together"
                        + (answer.ties.count > 1 || tie.sets > 1 ? " in \(tie.sets)" : "")
                }.joined(separator: "; ")
                let rest = answer.ties.dropFirst(Self.tieGroupsShown).reduce(0) { $0 + $1.sets }
                if rest > 0 { who += "; other contenders in \(rest)" }
                parts.append(
                    answer.wins.isEmpty
                        ? "no contender is clearly \(answer.ranking.best) in any: \(who) "
                            + "(within \(Int(Standing.closeEnough * 100))% of each other, or their processes "
                            + "spread wider than they differ, so a repeat run could order them either way)"
                        : "a tie in \(answer.tieCount) (\(who))")
            }
            if answer.ranking.figure != .time { parts.append("ranked by \(answer.ranking.heading), not time") }
            return "- **\(answer.workload)** (\(answer.compared) parameter set\(answer.compared == 1 ? "" : "s")): "
                + parts.joined(separator: "; ") + "."
        }
    }

    /// The groups of leaders a family's line names, most frequent first; the family's tables have the rest.
    static let tieGroupsShown = 3

    /// A contender's wins in a family are named by their parameter sets up to this many.
    static let winsNamed = 2

    /// "a", "a and b", "a, b and c"; beyond three, "a, b and 5 others".
    static func leaders(_ names: [String]) -> String {
        if names.count > 3 { return names.prefix(2).joined(separator: ", ") + " and \(names.count - 2) others" }
        return listed(names)
    }

    /// "a", "a and b", "a, b and c", every one named.
    static func listed(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// jemalloc against the system allocator, case by case: clearly faster, clearly slower, or
    /// not told apart; how to measure it when the run had no jemalloc case (the quick suite's
    /// default); nil when it had some but none beside its system twin.
    static func allocatorLine(_ cases: [MeasuredCase], suite: Suite) -> String? {
        guard cases.contains(where: { $0.benchmarkCase.allocator == .jemalloc }) else {
            return "- **allocator**: every case ran under the system allocator; "
                + "`bench run --suite \(suite) --allocator system --allocator jemalloc` compares jemalloc too "
                + "(twice the cases)."
        }
        var system: [String: CaseEstimate] = [:]
        for measured in cases where measured.benchmarkCase.allocator == .system {
            system[Self.withoutAllocator(measured.benchmarkCase)] = measured.estimate
        }
        var faster = 0, slower = 0, neither = 0
        for measured in cases where measured.benchmarkCase.allocator == .jemalloc {
            guard let mine = measured.estimate, let theirs = system[Self.withoutAllocator(measured.benchmarkCase)]
            else { continue }
            switch Faster(mine, theirs) {
            case .first: faster += 1
            case .second: slower += 1
            case .neither, .dependsOnMode: neither += 1
            }
        }
        let total = faster + slower + neither
        guard total > 0 else { return nil }
        return "- **allocator**: under jemalloc instead of the system allocator, "
            + "\(faster) of \(total) cases are clearly faster, \(slower) clearly slower, "
            + "and \(neither) not told apart."
    }

    /// A case's id without its allocator: the key that pairs a case under jemalloc with the same
    /// case under the system allocator.
    static func withoutAllocator(_ benchmarkCase: BenchmarkCase) -> String {
        String(benchmarkCase.id.dropLast(benchmarkCase.allocator.rawValue.count))
    }
}

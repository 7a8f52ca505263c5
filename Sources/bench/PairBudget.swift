import Gate
import Harness
import Results

/// `bench ab --budget`: after each look, which cases run how many more pairs. The cases still
/// open (`SequentialRule`) go on to the next look while the time left allows; when it allows only
/// some of them, those likeliest to have changed (smallest p-value) go first, and that round is
/// the last. A class, because the paired run calls it from its task after each round and the
/// command reads the record afterwards; one caller at a time, never concurrently.
final class PairBudget: @unchecked Sendable {
    let budget: TimeBudget
    let thresholds: Thresholds
    let caseIDs: [String]
    private(set) var record: SequentialRecord
    /// Why pairing stopped, once it has.
    private(set) var ending: Ending? {
        didSet { record.ending = ending?.description }
    }
    private var lastRound = false

    enum Ending: Equatable {
        case everyCaseSettled
        case mostPairs(Int)
        /// Out of time with this many cases still open.
        case budget(open: Int)

        var description: String {
            switch self {
            case .everyCaseSettled: "every case settled"
            case .mostPairs(let pairs): "the open cases reached the most pairs, \(pairs)"
            case .budget(let open): "the budget ran out with \(open) case\(open == 1 ? "" : "s") open"
            }
        }
    }

    init(budget: TimeBudget, rule: SequentialRule, thresholds: Thresholds, caseIDs: [String]) {
        self.budget = budget
        self.thresholds = thresholds
        self.caseIDs = caseIDs
        record = SequentialRecord(rule: rule)
    }

    /// The next round after `look`, or nil to stop. `report` gets a line about the look.
    func next(after look: MeasuredRun.PairedLook, report: (String) -> Void) -> Runner.Round? {
        guard let comparison = try? Comparison(base: look.a, new: look.b, thresholds: thresholds, pairing: .paired) else {
            ending = .everyCaseSettled  // nothing in common to compare: more pairs cannot help
            return nil
        }
        let states = record.record(comparison, pairs: Dictionary(uniqueKeysWithValues: zip(caseIDs, look.pairs)))
        let open = caseIDs.indices.filter { states[caseIDs[$0]] == .open }
        let elapsed = look.elapsed.inSeconds
        let used = "\(TimeBudget.spelled(elapsed)) of \(TimeBudget.spelled(budget.seconds)) used"
        let current = open.map { look.pairs[$0] }.max() ?? 0
        guard !open.isEmpty else {
            ending = .everyCaseSettled
            report("bench ab: every case settled; \(used)")
            return nil
        }
        guard !lastRound else {
            ending = .budget(open: open.count)
            report("bench ab: \(open.count) of \(caseIDs.count) cases open, out of time; \(used)")
            return nil
        }
        guard let nextPairs = record.rule.looks.first(where: { $0 > current }) else {
            ending = .mostPairs(current)
            report("bench ab: \(open.count) of \(caseIDs.count) cases open at the most pairs (\(current)); \(used)")
            return nil
        }
        // The likeliest changes first: the smallest p-value of any of the case's rows.
        var smallestP: [String: Double] = [:]
        for row in comparison.rows { if let p = row.estimate?.pValue { smallestP[row.caseID] = min(p, smallestP[row.caseID] ?? 1) } }
        let left = budget.seconds - elapsed
        var chosen: [Int] = [], cost = 0.0
        for position in open.sorted(by: { smallestP[caseIDs[$0]] ?? 1 < smallestP[caseIDs[$1]] ?? 1 }) {
            let more = Double(nextPairs - look.pairs[position]) * look.secondsPerPair[position]
            if cost + more <= left { chosen.append(position); cost += more }
        }
        guard !chosen.isEmpty else {
            ending = .budget(open: open.count)
            report("bench ab: \(open.count) of \(caseIDs.count) cases open, no time for more pairs; \(used)")
            return nil
        }
        lastRound = chosen.count < open.count
        report("bench ab: \(open.count) of \(caseIDs.count) cases open after \(current) pairs; "
               + "\(chosen.count == open.count ? "all" : "\(chosen.count) that fit the budget") go on to \(nextPairs) pairs "
               + "(about \(TimeBudget.spelled(cost))); \(used)")
        return Runner.Round(cases: chosen.sorted(), repetitions: current..<nextPairs)
    }
}

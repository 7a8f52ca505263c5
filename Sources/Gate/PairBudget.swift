import Results

/// `bench ab --budget`: after each look, which cases run how many more pairs. The cases still
/// open (`SequentialRule`) go on to the next look while the time left allows; when it allows only
/// some of them, those likeliest to have changed (smallest p-value) go first, and that round is
/// the last. A class, because the paired run calls it from its task after each round and the
/// command reads the record afterwards; one caller at a time, never concurrently.
public final class PairBudget: @unchecked Sendable {
    public let budget: TimeBudget
    let thresholds: Thresholds
    let caseIDs: [String]
    public private(set) var record: SequentialRecord

    /// What the pairs so far measured: both builds' runs, and per case (in the plan's order) its
    /// pairs and their cost.
    public struct Look: Sendable {
        public let a: RunResults
        public let b: RunResults
        public let pairs: [Int]
        public let secondsPerPair: [Double]
        /// Since the first child started.
        public let elapsedSeconds: Double

        public init(a: RunResults, b: RunResults, pairs: [Int], secondsPerPair: [Double], elapsedSeconds: Double) {
            (self.a, self.b, self.pairs, self.secondsPerPair, self.elapsedSeconds) = (
                a, b, pairs, secondsPerPair, elapsedSeconds
            )
        }
    }

    /// The next round: these cases (indices in the plan's order) run these pair numbers.
    public struct Round: Sendable, Equatable {
        public let cases: [Int]
        public let pairs: Range<Int>
    }
    /// Why pairing stopped, once it has.
    private(set) var ending: Ending? {
        didSet { record.ending = ending?.description }
    }
    private var lastRound = false

    public enum Ending: Equatable, Sendable {
        case everyCaseSettled
        case mostPairs(Int)
        /// Out of time with this many cases still open.
        case budget(open: Int)

        public var description: String {
            switch self {
            case .everyCaseSettled: "every case settled"
            case .mostPairs(let pairs): "the open cases reached the most pairs, \(pairs)"
            case .budget(let open): "the budget ran out with \(open) case\(open == 1 ? "" : "s") open"
            }
        }
    }

    public init(budget: TimeBudget, rule: SequentialRule, thresholds: Thresholds, caseIDs: [String]) {
        self.budget = budget
        self.thresholds = thresholds
        self.caseIDs = caseIDs
        record = SequentialRecord(rule: rule)
    }

    /// The next round after `look`, or nil to stop. `report` gets a line about the look.
    public func next(after look: Look, report: (String) -> Void) -> Round? {
        guard let comparison = try? Comparison(base: look.a, new: look.b, thresholds: thresholds, pairing: .paired)
        else {
            ending = .everyCaseSettled  // nothing in common to compare: more pairs cannot help
            return nil
        }
        let states = record.record(comparison, pairs: Dictionary(uniqueKeysWithValues: zip(caseIDs, look.pairs)))
        let open = caseIDs.indices.filter { states[caseIDs[$0]] == .open }
        let elapsed = look.elapsedSeconds
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
        for row in comparison.rows {
            if let p = row.estimate?.pValue { smallestP[row.caseID] = min(p, smallestP[row.caseID] ?? 1) }
        }
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
        report(
            "bench ab: \(open.count) of \(caseIDs.count) cases open after \(current) pairs; "
                + "\(chosen.count == open.count ? "all" : "\(chosen.count) that fit the budget") go on to "
                + "\(nextPairs) pairs (about \(TimeBudget.spelled(cost))); \(used)")
        return Round(cases: chosen.sorted(), pairs: current..<nextPairs)
    }
}

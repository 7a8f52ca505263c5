#if canImport(Glibc)
import Glibc
#endif
import Claims
import Results

/// Whether a repeat run agrees with a first one, in the two ways a reader relies on:
/// - **figures**: how often the repeat's figure of a case falls outside the first run's repeat
///   interval (at 95%, about 5 in 100 should);
/// - **statements**: every "clearly" of the first run's report (a parameter set's clear winner
///   over its runner-up, a claim supported or refuted on timing, jemalloc clearly faster or slower
///   than the system allocator for a case) checked in the repeat: the same, reversed, or a tie;
/// - **answers**: each part of the first screen's questions, which agree when no contender is a
///   leader in one run and clearly behind in the other, and are the same word for word when both
///   runs name the same contenders leading together and the same mode-dependent ones.
///
/// This is how the report's statistics are calibrated on a machine (`bench agreement`, README
/// "How far a figure holds"), and how a user checks that a second run says the same.
public struct Agreement: Sendable {
    /// A case whose repeat figure fell outside the first run's interval.
    public struct Miss: Sendable {
        public let caseID: String
        public let first: CaseEstimate
        public let repeated: CaseEstimate
        /// repeat figure / first figure.
        public var ratio: Double { repeated.value / first.value }
    }

    /// One "clearly" statement of the first run and what the repeat said.
    public struct Statement: Sendable {
        public enum Outcome: String, Sendable { case holds, tie, reversed, missing = "not in the repeat" }
        /// E.g. "spawn pattern=chain: fifo-dispatch clearly faster than libdispatch-c".
        public let text: String
        public let outcome: Outcome
    }

    /// One part of a first-screen question, answered by both runs.
    public struct Answer: Sendable {
        /// "What stride for a small loop body? concurrentPerform, 10ns body, per iteration".
        public let text: String
        let first: QuestionAnswer.Outcome
        let repeated: QuestionAnswer.Outcome

        /// Word for word: the same contenders leading together, the same mode-dependent ones.
        public var isSame: Bool { Self.groups(first) == Self.groups(repeated) }
        /// Contenders one run names a leader and the other clearly behind; none when the two
        /// answers agree (a contender that one run could not place, the other may place either way).
        public var contradictions: [String] { first.contradictions(repeated) }
        public var agrees: Bool { contradictions.isEmpty }

        /// "stride 64, stride 512, stride 8 lead together; the automatic stride depends on the mode"
        /// for a list of differences.
        public var firstText: String { Self.text(first) }
        public var repeatedText: String { Self.text(repeated) }

        private static func groups(_ outcome: QuestionAnswer.Outcome) -> [Set<String>] {
            [Set(outcome.leadingGroup), Set(outcome.dependsOnMode)]
        }

        private static func text(_ outcome: QuestionAnswer.Outcome) -> String {
            let groups = [
                (outcome.leadingGroup, outcome.leadingGroup.count == 1 ? "leads" : "lead together"),
                (outcome.dependsOnMode, "depends on the mode"),
            ]
            return groups.filter { !$0.0.isEmpty }.map { "\($0.0.joined(separator: ", ")) \($0.1)" }
                .joined(separator: "; ")
        }
    }

    /// Cases with a figure in both runs.
    public let comparedCases: Int
    public let misses: [Miss]
    public let statements: [Statement]
    /// The first screen's parts that both runs answer.
    public let answers: [Answer]

    public init(first: RunResults, repeated: RunResults) {
        let firstEstimates = RunEstimates(first.cases), repeatEstimates = RunEstimates(repeated.cases)
        var compared = 0
        var misses: [Miss] = []
        for result in first.cases {
            let id = result.benchmarkCase.id
            guard let a = firstEstimates[id], let b = repeatEstimates[id] else { continue }
            compared += 1
            if !a.repeatInterval.contains(b.value) { misses.append(Miss(caseID: id, first: a, repeated: b)) }
        }
        comparedCases = compared
        self.misses = misses.sorted { abs(log($0.ratio)) > abs(log($1.ratio)) }

        let firstCases = MeasuredCase.all(first, estimates: firstEstimates)
        let repeatCases = MeasuredCase.all(repeated, estimates: repeatEstimates)
        statements =
            Self.winnerStatements(firstCases, repeatCases)
            + Self.allocatorStatements(firstCases, repeatCases)
            + Self.claimStatements(
                Claim.verdicts(for: first, estimates: firstEstimates),
                Claim.verdicts(for: repeated, estimates: repeatEstimates))
        answers = Self.answers(firstCases, repeatCases)
    }

    /// Each part of the first screen's questions that both runs answer, with the leaders each names.
    static func answers(_ first: [MeasuredCase], _ repeated: [MeasuredCase]) -> [Answer] {
        let again = QuestionAnswer.outcomes(Question.firstScreen, cases: repeated)
        return zip(QuestionAnswer.outcomes(Question.firstScreen, cases: first), again).compactMap { mine, theirs in
            guard let a = mine.outcome, let b = theirs.outcome else { return nil }
            return Answer(text: "\(mine.question.text) \(mine.part.condition)", first: a, repeated: b)
        }
    }

    /// Share of compared cases whose repeat figure missed the first interval.
    public var missRate: Double { comparedCases == 0 ? 0 : Double(misses.count) / Double(comparedCases) }

    public func count(_ outcome: Statement.Outcome) -> Int { statements.filter { $0.outcome == outcome }.count }

    /// The first screen's parts both runs answer word for word.
    public var sameAnswers: Int { answers.filter(\.isSame).count }
    /// The first screen's parts whose answers contradict nothing in each other.
    public var agreeingAnswers: Int { answers.filter(\.agrees).count }

    /// Each parameter set's clear winner over its runner-up, under the system allocator, as the
    /// report's "what should I use?" counts them; in the repeat, the same two cases compared.
    static func winnerStatements(_ first: [MeasuredCase], _ repeated: [MeasuredCase]) -> [Statement] {
        let again = Dictionary(repeated.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { a, _ in a })
        var statements: [Statement] = []
        for family in Family.arrange(first) {
            let ranking = family.ranking
            for set in family.parameterSets {
                let standing = Standing(set.cases.filter { $0.benchmarkCase.allocator == .system })
                guard standing.isClear else { continue }
                let winner = standing.ranked[0].measured, runnerUp = standing.ranked[1].measured
                let text =
                    "\(family.workload) \(set.title): \(family.contender(winner.benchmarkCase)) clearly "
                    + "\(ranking.better) than \(family.contender(runnerUp.benchmarkCase))"
                statements.append(
                    Statement(
                        text: text,
                        outcome: outcome(
                            again[winner.benchmarkCase.id]?.ranked,
                            again[runnerUp.benchmarkCase.id]?.ranked)))
            }
        }
        return statements
    }

    /// Each case where jemalloc is clearly faster or slower than the system allocator.
    static func allocatorStatements(_ first: [MeasuredCase], _ repeated: [MeasuredCase]) -> [Statement] {
        let system = Dictionary(
            first.filter { $0.benchmarkCase.allocator == .system }.map {
                (Answers.withoutAllocator($0.benchmarkCase), $0)
            },
            uniquingKeysWith: { a, _ in a })
        let again = Dictionary(repeated.map { ($0.benchmarkCase.id, $0) }, uniquingKeysWith: { a, _ in a })
        var statements: [Statement] = []
        for measured in first where measured.benchmarkCase.allocator == .jemalloc {
            guard let mine = measured.estimate, let other = system[Answers.withoutAllocator(measured.benchmarkCase)],
                let theirs = other.estimate
            else { continue }
            let systemID = other.benchmarkCase.id
            let verdict = Faster(mine, theirs)
            guard verdict.isClear else { continue }
            let (winner, loser) =
                verdict == .first ? (measured.benchmarkCase.id, systemID) : (systemID, measured.benchmarkCase.id)
            let text = "\(winner) clearly faster than under the other allocator"
            statements.append(Statement(text: text, outcome: outcome(again[winner]?.estimate, again[loser]?.estimate)))
        }
        return statements
    }

    /// Each claim supported or refuted in the first run: the same verdict, inconclusive (a tie),
    /// or the opposite (reversed) in the repeat.
    static func claimStatements(_ first: [ClaimVerdict], _ repeated: [ClaimVerdict]) -> [Statement] {
        let again = Dictionary(repeated.map { ($0.claim, $0.verdict) }, uniquingKeysWith: { a, _ in a })
        return first.filter { $0.verdict != .inconclusive }.map { verdict in
            let outcome: Statement.Outcome
            switch again[verdict.claim] {
            case nil: outcome = .missing
            case verdict.verdict: outcome = .holds
            case .inconclusive: outcome = .tie
            default: outcome = .reversed
            }
            return Statement(text: "claim \(verdict.claim) \(verdict.verdict.rawValue)", outcome: outcome)
        }
    }

    /// What the repeat says of a winner and a loser of the first run.
    private static func outcome(_ winner: CaseEstimate?, _ loser: CaseEstimate?) -> Statement.Outcome {
        guard let winner, let loser else { return .missing }
        switch Faster(winner, loser) {
        case .first: return .holds
        case .second: return .reversed
        case .neither, .dependsOnMode: return .tie
        }
    }
}

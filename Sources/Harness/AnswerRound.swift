import Results

/// One round of more processes, after every case's repetitions, for the cases on which the run's
/// answers hang undecided (`UndecidedAnswers` for the report's questions): a contender more than
/// a few percent behind the best that the run cannot yet tell from it.
///
/// One round of a fixed size, not rounds until the answer comes out: adding processes until a
/// difference shows would find one between equal cases far more often than the rank test's 5%.
/// Two looks, the second at seventeen processes, keep that near its level, and a repeat run that
/// does the same decides the same cases with as many processes.
public struct AnswerRound: Sendable {
    /// How long the round may take; cases whose processes would not fit are left out, the
    /// cheapest kept first.
    public let budget: Duration
    /// The ids of the undecided cases among the run's results, most needed first: each tier's cases
    /// are chosen, cheapest first, before the next tier's get what time is left.
    public let undecided: @Sendable ([CaseResult]) -> [Set<String>]

    /// Processes added to each chosen case: five and twelve make seventeen. A contender 1.2×
    /// behind the best, on a VM whose processes spread by 15%, is told to be more than 5% behind
    /// about half the time with nine processes a side (by the normal approximation), so two runs
    /// answered differently about as often as not; with seventeen, three times in four. README
    /// "How far a figure holds" has the runs that measured it.
    public static let processes = 12

    public init(budget: Duration, undecided: @escaping @Sendable ([CaseResult]) -> [Set<String>]) {
        self.budget = budget
        self.undecided = undecided
    }

    /// The undecided cases (indices), how many; and those that get `processes` more, chosen by
    /// `ProcessBudget.cheapestFirst` within `seconds`, tier by tier. A case in two tiers counts in
    /// the first.
    func choose(_ cases: [CaseResult], secondsPerProcess: [Double], seconds: Double) -> (
        undecided: Int, chosen: [Int]
    ) {
        var left = seconds, open = 0
        var chosen: [Int] = []
        var taken: Set<String> = []
        for tier in undecided(cases) {
            let ids = tier.subtracting(taken)
            taken.formUnion(ids)
            let members = cases.indices.filter { ids.contains(cases[$0].benchmarkCase.id) }
            open += members.count
            let picked = ProcessBudget.cheapestFirst(
                members, secondsPerProcess: secondsPerProcess, processes: Self.processes, seconds: left)
            left -= picked.reduce(0) { $0 + secondsPerProcess[$1] * Double(Self.processes) }
            chosen += picked
        }
        return (open, chosen.sorted())
    }
}

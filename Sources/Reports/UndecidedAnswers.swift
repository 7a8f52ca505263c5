import Claims
import Results

/// The cases on which a first-screen answer, a claim or a parameter set's winner hangs undecided:
/// a contender more than `Standing.closeEnough` behind the best that the run cannot yet tell to be
/// that far behind (`Standing.Place.undecided`, which the first screen names among the leaders,
/// with its ratio), with the best and the contenders that lead with it. More processes for exactly
/// these decide the answer one way or the other in this run, so a repeat run, which adds as many,
/// gives the same one (`MeasuredRun.AnswerRound`). A case whose modes order it either way against
/// the best is the mode budget's to settle, not this.
public enum UndecidedAnswers {
    /// The answers' round's tiers (`AnswerRound`): first `caseIDs`, what the questions and the
    /// claims hang on; then `parameterSetCaseIDs`, with what time is left. On the 2-core VM a quick
    /// run had 91 such cases, 43 of which fit the 45 s; taken together, cheapest first, the cheap
    /// cases of the parameter sets would crowd out the questions' own.
    public static func tiers(_ results: [CaseResult]) -> [Set<String>] {
        let cases = measuredCases(results)
        return [questionAndClaimCaseIDs(cases, results), Set(parameterSetCaseIDs(cases))]
    }

    /// The ids of the cases, under the system allocator, of every undecided pair of every part of
    /// the report's questions, and of every timing comparison of a claim that the run could not
    /// decide (`Claim.undecidedCaseIDs`): a claim flips between "refuted" and "inconclusive" from
    /// one run to the next as an answer does. The first of `tiers`.
    static func caseIDs(_ results: [CaseResult]) -> Set<String> {
        questionAndClaimCaseIDs(measuredCases(results), results)
    }

    private static func questionAndClaimCaseIDs(_ cases: [MeasuredCase], _ results: [CaseResult]) -> Set<String> {
        let parts = Question.firstScreen.flatMap(\.parts)
        let answers = parts.flatMap { part in
            undecided(QuestionAnswer.entries(part, cases: cases).map { ($0.caseID, $0.estimate) })
        }
        return Set(answers).union(Claim.undecidedCaseIDs(results))
    }

    /// The undecided contenders, with their leaders, of every parameter set of every family ranked
    /// by time: the first screen's "What should I use?", whose clear winners `bench agreement`
    /// checks in a repeat. They hang as the questions' answers do: fifo-dispatch's uncontended
    /// semaphore, 12.2 ns in all five processes against libdispatch's 16.9, was clearly faster in
    /// one quick run and a tie in the next, where one process of each read 18.0 and 20.4. A family
    /// ranked by its own figure (footprint's bytes per unit) is left out: these estimates are
    /// times, which do not rank it.
    static func parameterSetCaseIDs(_ cases: [MeasuredCase]) -> [String] {
        let timed = cases.filter { Ranking.figureByWorkload[$0.benchmarkCase.workload] == nil }
        return Family.arrange(timed).flatMap { family in
            family.parameterSets.flatMap { set in
                undecided(
                    set.cases.compactMap { measured in measured.estimate.map { (measured.benchmarkCase.id, $0) } })
            }
        }
    }

    /// The run's cases under the system allocator, each ranked by its time.
    private static func measuredCases(_ results: [CaseResult]) -> [MeasuredCase] {
        let estimates = RunEstimates(results)
        return results.filter { $0.benchmarkCase.allocator == .system }.map { result in
            MeasuredCase(
                result, estimate: estimates[result.benchmarkCase.id], ranking: .time,
                ranked: estimates[result.benchmarkCase.id])
        }
    }

    /// The undecided contenders of one part, with every leader (the best and those within
    /// `Standing.closeEnough` of it), as case ids; none when nothing is undecided. The best after
    /// the round may be any of the leaders, and it must stand on as many processes as the
    /// contenders it is then compared with: a best of 5 lucky processes called a contender of 17
    /// clearly behind that the next run put level with it (concurrentPerform's automatic stride at a
    /// 10 ns body, 8.9 against stride 512's 7.05 ns, then 8.52 against 8.57).
    static func undecided(_ entries: [(caseID: String, estimate: CaseEstimate)]) -> [String] {
        guard let best = entries.min(by: { $0.estimate.value < $1.estimate.value }) else { return [] }
        let places = entries.map { ($0.caseID, Standing.place($0.estimate, withBest: best.estimate)) }
        guard places.contains(where: { $0.1 == .undecided }) else { return [] }
        return places.filter { $0.1 == .undecided || $0.1 == .leads }.map(\.0)
    }
}

import Claims
import Results

/// The cases on which a first-screen answer or a claim hangs undecided: a contender more than
/// `Standing.closeEnough` behind the best that the run cannot yet tell to be that far behind
/// (`Standing.Place.undecided`, which the first screen names among the leaders, with its ratio),
/// with the best and the contenders that lead with it. More processes for exactly these decide the
/// answer one way or the other in this run, so a repeat run, which adds as many, gives the same one
/// (`MeasuredRun.AnswerRound`). A case whose modes order it either way against the best is the
/// mode budget's to settle, not this.
public enum UndecidedAnswers {
    /// The ids of the cases, under the system allocator, of every undecided pair of every part of
    /// the report's questions, and of every timing comparison of a claim that the run could not
    /// decide (`Claim.undecidedCaseIDs`): a claim flips between "refuted" and "inconclusive" from
    /// one run to the next as an answer does.
    public static func caseIDs(_ results: [CaseResult]) -> Set<String> {
        let estimates = RunEstimates(results)
        let cases = results.filter { $0.benchmarkCase.allocator == .system }.map { result in
            MeasuredCase(
                result, estimate: estimates[result.benchmarkCase.id], ranking: .time,
                ranked: estimates[result.benchmarkCase.id])
        }
        let parts = Question.firstScreen.flatMap(\.parts)
        return Set(parts.flatMap { undecided(QuestionAnswer.entries($0, cases: cases)) })
            .union(Claim.undecidedCaseIDs(results))
    }

    /// The undecided contenders of one part, with every leader (the best and those within
    /// `Standing.closeEnough` of it), as case ids; none when nothing is undecided. The best after
    /// the round may be any of the leaders, and it must stand on as many processes as the
    /// contenders it is then compared with: a best of 5 lucky processes called a contender of 17
    /// clearly behind that the next run put level with it (concurrentPerform's automatic stride at a
    /// 10 ns body, 8.9 against stride 512's 7.05 ns, then 8.52 against 8.57).
    static func undecided(_ entries: [QuestionAnswer.Entry]) -> [String] {
        guard let best = entries.min(by: { $0.estimate.value < $1.estimate.value }) else { return [] }
        let places = entries.map { ($0.caseID, Standing.place($0.estimate, withBest: best.estimate)) }
        guard places.contains(where: { $0.1 == .undecided }) else { return [] }
        return places.filter { $0.1 == .undecided || $0.1 == .leads }.map(\.0)
    }
}

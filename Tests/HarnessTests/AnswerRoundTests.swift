import Results
import Testing

@testable import Harness

/// Which cases the answers' round gives more processes: those the answers name undecided, the
/// cheapest first, within the budget; none when nothing is undecided.
@Suite("AnswerRound: one round of more processes where an answer hangs")
struct AnswerRoundTests {
    static let cases = ["a", "b", "c", "d"].map { name in
        CaseResult(benchmarkCase: BenchmarkCase(workload: "w", backend: name, parameters: [], allocator: .system))
    }

    @Test("the undecided cases only, cheapest first, while their processes fit")
    func chosen() {
        let undecided = Set([Self.cases[1].benchmarkCase.id, Self.cases[2].benchmarkCase.id])
        let round = AnswerRound(budget: .seconds(30)) { _ in [undecided] }
        let seconds = [0.1, 0.2, 3.0, 0.1]
        let processes = Double(AnswerRound.processes)
        let all = round.choose(Self.cases, secondsPerProcess: seconds, seconds: processes * 3.2 + 1)
        #expect(all.undecided == 2 && all.chosen == [1, 2])
        // The round's processes of the expensive case (3 s each) do not fit; the cheap one's do.
        let some = round.choose(Self.cases, secondsPerProcess: seconds, seconds: processes * 3.0)
        #expect(some.undecided == 2 && some.chosen == [1])
        let none = AnswerRound(budget: .seconds(30)) { _ in [[], []] }
            .choose(Self.cases, secondsPerProcess: seconds, seconds: 30)
        #expect(none.undecided == 0 && none.chosen.isEmpty)
    }

    @Test("a later tier gets only the time the earlier left; a case in both counts once, in the first")
    func tiers() {
        let id = Self.cases.map(\.benchmarkCase.id)
        // The first tier's case costs 1 s a process, the second's cheaper ones 0.1 s.
        let round = AnswerRound(budget: .seconds(30)) { _ in [[id[2]], [id[0], id[2], id[3]]] }
        let seconds = [0.1, 0.1, 1.0, 0.1]
        let processes = Double(AnswerRound.processes)
        // Room for the first tier's case alone: the cheaper ones of the second do not take it.
        let first = round.choose(Self.cases, secondsPerProcess: seconds, seconds: processes * 1.05)
        #expect(first.undecided == 3 && first.chosen == [2])
        // Room for it and one more: the cheapest of the second tier joins.
        let more = round.choose(Self.cases, secondsPerProcess: seconds, seconds: processes * 1.15)
        #expect(more.undecided == 3 && more.chosen == [0, 2])
    }
}

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
        let round = AnswerRound(budget: .seconds(30)) { _ in undecided }
        let seconds = [0.1, 0.2, 3.0, 0.1]
        let processes = Double(AnswerRound.processes)
        let all = round.choose(Self.cases, secondsPerProcess: seconds, seconds: processes * 3.2 + 1)
        #expect(all.undecided == 2 && all.chosen == [1, 2])
        // The round's processes of the expensive case (3 s each) do not fit; the cheap one's do.
        let some = round.choose(Self.cases, secondsPerProcess: seconds, seconds: processes * 3.0)
        #expect(some.undecided == 2 && some.chosen == [1])
        let none = AnswerRound(budget: .seconds(30)) { _ in [] }
            .choose(Self.cases, secondsPerProcess: seconds, seconds: 30)
        #expect(none.undecided == 0 && none.chosen.isEmpty)
    }
}

import Results
import Reports
import Testing

/// `Agreement` on the hand-made run against a changed copy of itself: a figure that moved out of
/// its interval is a miss, a winner that became the loser is reversed, one that came close is a tie.
@Suite("agreement between a run and its repeat")
struct AgreementTests {
    /// The fixture with the processes of the case `id` scaled by `factor`.
    static func scaled(_ run: RunResults, _ id: String, by factor: Double) -> RunResults {
        var run = run
        run.cases = run.cases.map { result in
            guard result.benchmarkCase.id == id else { return result }
            var result = result
            result.records = result.records.map { record in
                CaseRecord(
                    caseID: record.caseID, repetition: record.repetition, batch: record.batch,
                    nanosecondsPerOperation: record.nanosecondsPerOperation.map { $0 * factor },
                    metricsPerOperation: record.metricsPerOperation, unavailable: record.unavailable,
                    workloadMetrics: record.workloadMetrics, cpus: record.cpus)
            }
            return result
        }
        return run
    }

    @Test("a run agrees with itself: no miss, every statement holds")
    func identical() {
        let agreement = Agreement(first: Fixture.run, repeated: Fixture.run)
        #expect(agreement.misses.isEmpty && agreement.comparedCases == 21)
        #expect(
            !agreement.statements.isEmpty && agreement.statements.allSatisfy { $0.outcome == .holds },
            "\(agreement.statements)")
        #expect(
            agreement.statements.contains {
                $0.text == "spawn pattern=chain: work-stealing clearly faster than libdispatch"
            })
        #expect(
            agreement.statements.contains {
                $0.text == "footprint units=256: libdispatch · queued-block clearly smaller than thread"
            })
    }

    @Test(
        """
        a winner that became slower than its runner-up is reversed; \
        one that came within reach is a tie; both figures missed
        """)
    func changed() throws {
        let chain = "spawn/work-stealing/pattern=chain/system"
        let reversed = Agreement(first: Fixture.run, repeated: Self.scaled(Fixture.run, chain, by: 4))
        #expect(reversed.misses.map(\.caseID) == [chain])
        let statement = try #require(reversed.statements.first { $0.text.hasPrefix("spawn pattern=chain") })
        #expect(statement.outcome == .reversed)
        let tie = Agreement(first: Fixture.run, repeated: Self.scaled(Fixture.run, chain, by: 3))
        #expect(try #require(tie.statements.first { $0.text.hasPrefix("spawn pattern=chain") }).outcome == .tie)
        #expect(tie.count(.tie) == 1 && tie.count(.reversed) == 0)
    }

    @Test(
        """
        first-screen answers: the same word for word; a contender one run could not place, placed by \
        the other, agrees; a leader of one clearly behind in the other contradicts
        """)
    func answers() throws {
        func run(actor: [Double]) -> RunResults {
            RunResults(
                environment: Fixture.environment, counterAvailability: [:], suite: .quick, repetitions: 2,
                sampleTimeNanoseconds: 5_000_000,
                cases: [
                    QuestionsTests.guarded("swift-mutex", "none", threads: "1", samples: Fixture.constant(5)),
                    QuestionsTests.guarded("actor", "none", threads: "1", samples: actor),
                    QuestionsTests.guarded("queue-sync", "libdispatch", threads: "1", samples: Fixture.constant(70)),
                ])
        }
        let behind = run(actor: Fixture.constant(50))
        let same = Agreement(first: behind, repeated: behind)
        // Only the part both runs measured with two contenders or more.
        let answer = try #require(same.answers.first)
        #expect(same.answers.count == 1 && answer.isSame && answer.agrees, "\(same.answers)")
        #expect(answer.firstText == "Mutex leads", "\(answer.firstText)")
        #expect(
            answer.text == "State shared by several threads: Mutex, actor or serial queue? 1 thread, empty sections")
        // One process of the actor at 5 ns, the other at 20: more than 5% behind, not clearly.
        let open = run(actor: Array(repeating: 5, count: 10) + Array(repeating: 20, count: 10))
        let settled = try #require(Agreement(first: behind, repeated: open).answers.first)
        #expect(!settled.isSame && settled.agrees && same.agreeingAnswers == 1, "\(settled)")
        #expect(settled.repeatedText == "Mutex, actor lead together", "\(settled.repeatedText)")
        // The actor within 5% of Mutex: a leader that the first run put clearly behind.
        let contradicted = try #require(
            Agreement(first: behind, repeated: run(actor: Fixture.constant(5.1))).answers.first)
        #expect(!contradicted.agrees && contradicted.contradictions == ["actor"], "\(contradicted)")
        #expect(contradicted.repeatedText == "Mutex, actor lead together", "\(contradicted.repeatedText)")
    }
}

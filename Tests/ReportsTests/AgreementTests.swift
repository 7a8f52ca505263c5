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

    @Test("a first-screen answer is the same when both runs name the same leaders, and differs otherwise")
    func answers() throws {
        func run(actor: Double) -> RunResults {
            RunResults(
                environment: Fixture.environment, counterAvailability: [:], suite: .quick, repetitions: 2,
                sampleTimeNanoseconds: 5_000_000,
                cases: [
                    QuestionsTests.guarded("swift-mutex", "none", threads: "1", samples: Fixture.constant(5)),
                    QuestionsTests.guarded("actor", "none", threads: "1", samples: Fixture.constant(actor)),
                    QuestionsTests.guarded("queue-sync", "libdispatch", threads: "1", samples: Fixture.constant(70)),
                ])
        }
        let same = Agreement(first: run(actor: 50), repeated: run(actor: 50))
        // Only the part both runs measured with two contenders or more.
        let answer = try #require(same.answers.first)
        #expect(same.answers.count == 1 && answer.isSame && answer.first == ["Mutex"], "\(same.answers)")
        #expect(
            answer.text == "State shared by several threads: Mutex, actor or serial queue? 1 thread, empty sections")
        // The actor within 5% of Mutex: both lead together, a different answer.
        let differs = try #require(Agreement(first: run(actor: 50), repeated: run(actor: 5.1)).answers.first)
        #expect(!differs.isSame && differs.repeated == ["Mutex", "actor"], "\(differs)")
    }
}

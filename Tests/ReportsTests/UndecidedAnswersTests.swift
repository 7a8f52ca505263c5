import Results
import Testing

@testable import Reports

/// The cases on which a first-screen answer hangs: a contender more than 5% behind the best that
/// the run cannot tell from it, with the best and those within 5% of it; not a clear loser, and
/// nothing where no contender is open.
@Suite("UndecidedAnswers: the cases a first-screen answer hangs on")
struct UndecidedAnswersTests {
    @Test("an open pair is undecided, with the leaders; a clear loser is not, nor a part with nothing open")
    func undecided() {
        let mutex = QuestionsTests.guarded("swift-mutex", "none", threads: "1", samples: Fixture.constant(5))
        // One process at 5 ns, the other at 20: 10 ns in the middle, its interval reaching 5.
        let actor = QuestionsTests.guarded(
            "actor", "none", threads: "1", samples: Array(repeating: 5, count: 10) + Array(repeating: 20, count: 10))
        let queue = QuestionsTests.guarded("queue-sync", "libdispatch", threads: "1", samples: Fixture.constant(70))
        #expect(
            UndecidedAnswers.caseIDs([mutex, actor, queue])
                == [mutex.benchmarkCase.id, actor.benchmarkCase.id])
        // The actor clearly behind: decided, as the queue is.
        let slowActor = QuestionsTests.guarded("actor", "none", threads: "1", samples: Fixture.constant(50))
        #expect(UndecidedAnswers.caseIDs([mutex, slowActor, queue]).isEmpty)
        // A leader within 5% of the best joins an open pair: after the round it may be the best.
        let leader = QuestionsTests.guarded("queue-sync", "libdispatch", threads: "1", samples: Fixture.constant(5.2))
        #expect(
            UndecidedAnswers.caseIDs([mutex, actor, leader])
                == [mutex.benchmarkCase.id, actor.benchmarkCase.id, leader.benchmarkCase.id])
        // Within 5% of the best, however open: it leads with it whatever more processes say.
        let closeActor = QuestionsTests.guarded(
            "actor", "none", threads: "1", samples: Array(repeating: 5, count: 10) + Array(repeating: 5.4, count: 10))
        #expect(UndecidedAnswers.caseIDs([mutex, closeActor, queue]).isEmpty)
    }

    @Test("a parameter set no question asks about is the second tier: its open runner-up and leaders, no clear loser")
    func parameterSets() {
        func uncontended(_ backend: String, _ samples: [Double]) -> CaseResult {
            Fixture.measured(
                "semaphore", backend, [("pattern", "uncontended"), ("semaphore", "backend")], samples: samples)
        }
        // One process of fifo-dispatch read 18 ns, the other 12: 14.7 in the middle, libdispatch's
        // 17 inside its reach.
        let fifo = uncontended("fifo-dispatch", Array(repeating: 12, count: 10) + Array(repeating: 18, count: 10))
        let libdispatch = uncontended("libdispatch", Fixture.constant(17))
        // No question asks about it, so it is the second tier's: the questions' cases come first.
        #expect(UndecidedAnswers.caseIDs([fifo, libdispatch]).isEmpty)
        #expect(
            UndecidedAnswers.tiers([fifo, libdispatch])
                == [[], [fifo.benchmarkCase.id, libdispatch.benchmarkCase.id]])
        // Every process of fifo-dispatch at 12: libdispatch and nio are clearly behind, nothing hangs.
        let slow = uncontended("nio", Fixture.constant(170))
        let steady = uncontended("fifo-dispatch", Fixture.constant(12))
        #expect(UndecidedAnswers.tiers([steady, libdispatch, slow]) == [[], []])
        // Under jemalloc the same spread hangs nothing: the first screen's winners are the system
        // allocator's.
        func underJemalloc(_ backend: String, _ samples: [Double]) -> CaseResult {
            Fixture.measured(
                "semaphore", backend, [("pattern", "uncontended"), ("semaphore", "backend")], allocator: .jemalloc,
                samples: samples)
        }
        let jemalloc = [
            underJemalloc("fifo-dispatch", Array(repeating: 12, count: 10) + Array(repeating: 18, count: 10)),
            underJemalloc("libdispatch", Fixture.constant(17)),
        ]
        #expect(UndecidedAnswers.tiers([steady, libdispatch, slow] + jemalloc) == [[], []])
    }
}

import PThreadPrimitives
import Testing

@Suite("SpinBudget: how often a poll looks, and how long it lasts")
struct SpinBudgetTests {
    /// Counts the looks of one poll whose condition never holds.
    private func looksOfAFailedPoll(_ budget: borrowing SpinBudget) -> Int {
        var looks = 0
        let ended = budget.poll(until: {
            looks += 1
            return false
        })
        #expect(!ended)
        return looks
    }

    @Test("a hand-off looks every round; a lock every pausesBetweenLooks rounds, over the same rounds")
    func looks() {
        #expect(looksOfAFailedPoll(SpinBudget()) == SpinBudget.maximum)
        let lockLooks = looksOfAFailedPoll(SpinBudget(for: .lock))
        let perLook = SpinBudget.pausesBetweenLooks
        #expect(lockLooks == (SpinBudget.maximum + perLook - 1) / perLook)
    }

    @Test("a brief poll looks every round, or every roundsPerLook rounds, and once more after its last")
    func briefLooks() {
        func looks(roundsPerLook: Int) -> Int {
            var looks = 0
            let ended = SpinBudget.pollBriefly(
                until: {
                    looks += 1
                    return false
                }, roundsPerLook: roundsPerLook)
            #expect(!ended)
            return looks
        }
        let rounds = SpinBudget.yieldEvery - 1
        #expect(looks(roundsPerLook: 1) == rounds + 1)
        let perLook = SpinBudget.pausesBetweenLooks
        #expect(looks(roundsPerLook: perLook) == (rounds + perLook - 1) / perLook + 1)
    }

    @Test("a lock poll looks at once, and ends at the first look that succeeds")
    func lockEndsAtItsLook() {
        let budget = SpinBudget(for: .lock)
        var looks = 0
        let first = budget.poll(until: {
            looks += 1; return true
        })
        #expect(first && looks == 1)
        looks = 0
        let third = budget.poll(until: {
            looks += 1; return looks == 3
        })
        #expect(third && looks == 3)
    }

    @Test("a failed poll halves the budget, down to the minimum rounds")
    func shrinks() {
        let budget = SpinBudget(for: .lock)
        // The maximum, then halvings; the probes (every probeEvery-th poll under the maximum) are
        // not reached in these few polls.
        var expectedRounds = SpinBudget.maximum
        for _ in 0..<8 {
            let looks = looksOfAFailedPoll(budget)
            let perLook = SpinBudget.pausesBetweenLooks
            #expect(looks == (expectedRounds + perLook - 1) / perLook, "after budget \(expectedRounds)")
            expectedRounds = max(SpinBudget.minimum, expectedRounds / 2)
        }
    }

    /// A hand-off budget down to `minimum` after its maximum and six halvings (seven polls, short
    /// of the first probe), with this thread's woken-sleeper mark cleared by a poll that ends at once.
    private func shortHandOffBudget() -> SpinBudget {
        let budget = SpinBudget()
        _ = budget.poll(until: { true })
        for _ in 0..<7 { _ = looksOfAFailedPoll(budget) }
        return budget
    }

    @Test("after this thread's signal woke a sleeper, its next hand-off poll lasts the maximum, once")
    func probesAfterWakingASleeper() {
        let budget = shortHandOffBudget()
        #expect(looksOfAFailedPoll(budget) == SpinBudget.minimum)
        SpinBudget.noteWokeSleeper()
        #expect(looksOfAFailedPoll(budget) == SpinBudget.maximum)
        // The failed probe halved from the maximum, as a probe every probeEvery polls does.
        #expect(looksOfAFailedPoll(budget) == SpinBudget.maximum / 2)
    }

    @Test("one poll in probeEvery lasts the maximum; one that runs out halves the maximum")
    func probeThatRunsOut() {
        let budget = shortHandOffBudget()
        var looks = [Int]()
        while looks.count <= SpinBudget.probeEvery, looks.last != SpinBudget.maximum {
            looks.append(looksOfAFailedPoll(budget))
        }
        #expect(looks.last == SpinBudget.maximum, "\(looks)")
        #expect(looks.dropLast().allSatisfy { $0 == SpinBudget.minimum }, "\(looks)")
        // The polls after it are long ones again, 2,000 rounds down to the minimum: they catch a
        // partner whose reply comes late more often than the short limit would (README.md,
        // "A probe after waking a sleeper", tried and not kept).
        #expect(looksOfAFailedPoll(budget) == SpinBudget.maximum / 2)
    }

    @Test("a lock's poll neither takes the mark nor lasts longer for it")
    func lockPollsLeaveTheMark() {
        let handOff = shortHandOffBudget()
        let lock = SpinBudget(for: .lock)
        for _ in 0..<7 { _ = looksOfAFailedPoll(lock) }
        let perLook = SpinBudget.pausesBetweenLooks
        SpinBudget.noteWokeSleeper()
        #expect(looksOfAFailedPoll(lock) == (SpinBudget.minimum + perLook - 1) / perLook)
        #expect(looksOfAFailedPoll(handOff) == SpinBudget.maximum)
    }

    @Test("a lock's poll backs off: looks further apart while the lock is taken; ends at the first success")
    func lockPollBacksOff() {
        var looks = 0
        let ended = SpinBudget(for: .lock).pollForLock(until: {
            looks += 1
            return false
        })
        #expect(!ended)
        // Over the same rounds a plain lock poll looks every pausesBetweenLooks rounds; this one
        // skips 3 of those looks after its first, 15 after its second, and maximumLookGap - 1
        // after each later one: its looks are the plain poll's 0, 4, 20, 36, ….
        #expect(SpinBudget.firstLookGap == 4 && SpinBudget.lookGapGrowth * 4 >= SpinBudget.maximumLookGap)
        let plainLooks = (SpinBudget.maximum + SpinBudget.pausesBetweenLooks - 1) / SpinBudget.pausesBetweenLooks
        let backedOff = 2 + (plainLooks - 1 - 4) / SpinBudget.maximumLookGap
        #expect(looks == backedOff, "\(looks) looks of \(plainLooks)")

        looks = 0
        let third = SpinBudget(for: .lock).pollForLock(until: {
            looks += 1
            return looks == 3
        })
        #expect(third && looks == 3)
    }
}

@Suite("GroupWord.poll: a waiter looks less often while several members remain")
struct GroupWordPollTests {
    /// Loads of one poll, on a fresh hand-off budget, of a word that keeps `members` and its
    /// generation; `changeAt` moves the generation at that load.
    private func loads(members: UInt64, changeAt: Int? = nil) -> (loads: Int, ended: Bool) {
        var loads = 0
        let generation: UInt64 = 7
        let ended = GroupWord.poll(SpinBudget(), untilGenerationLeaves: generation) {
            loads += 1
            let now = loads == changeAt ? generation + 1 : generation
            return now << 32 | members
        }
        return (loads, ended)
    }

    @Test("with one member left it looks every round; with four, once every 1 + 3 × roundsPerMemberLeft rounds")
    func spacing() {
        let one = loads(members: 1)
        #expect(!one.ended && one.loads == SpinBudget.maximum)
        let four = loads(members: 4)
        let apart = 1 + 3 * GroupWord.roundsPerMemberLeft
        #expect(!four.ended && four.loads == (SpinBudget.maximum + apart - 1) / apart)
        // Past nine members the gap stops growing.
        let many = loads(members: 1_000)
        let widest = 1 + 8 * GroupWord.roundsPerMemberLeft
        #expect(!many.ended && many.loads == (SpinBudget.maximum + widest - 1) / widest)
    }

    @Test("the look that sees the generation move ends the poll")
    func endsWhenTheGenerationMoves() {
        let moved = loads(members: 4, changeAt: 3)
        #expect(moved.ended && moved.loads == 3)
    }
}

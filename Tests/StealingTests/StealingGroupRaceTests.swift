import PThreadPrimitives
import RuntimeKit
@testable import StealingRuntime
import Synchronization
import Testing
import TestSupport

/// `StealingGroup` counts in one atomic word and takes its mutex only for waiters, notifiers and
/// the leave that empties the group (README.md, "Group"). These rounds put the last leave against
/// a waiter that is deciding to sleep and a notification being filed, the two races of its table
/// that a lost wake-up or a lost (or doubled) notification would come from.
@Suite("work-stealing group: the last leave against a waiter and a notifier")
struct StealingGroupRaceTests {
    @Test("100,000 rounds: every wait ends, every notification runs exactly once")
    func lastLeaveRacesWaitAndNotify() async throws {
        let rounds = 100_000
        let outcome = try await onDedicatedThread { () -> String? in
            let runtime = StealingRuntime(workers: 2)
            defer { runtime.shutdown() }
            let group = runtime.makeGroup()
            let queue = runtime.makeSerialQueue(label: "notified")
            let notified = Atomic<Int>(0)
            for round in 0..<rounds {
                group.enter()
                // The leave lands anywhere from before the notify to after the wait has blocked.
                let delay = round % 64
                runtime.async {
                    for _ in 0..<delay { _ = notified.load(ordering: .relaxed) }  // a few ns each, not optimized away
                    group.leave()
                }
                group.notify(on: queue) { notified.add(1, ordering: .relaxed) }
                if group.wait(timeout: .seconds(60)) == .timedOut {
                    return "round \(round): the wait missed the group's emptying: \(runtime.debugDescriptionForTests)"
                }
            }
            let all = eventually { notified.load(ordering: .relaxed) >= rounds }
            sleepFor(milliseconds: 20)  // a doubled notification would land by now
            let ran = notified.load(ordering: .relaxed)
            return all && ran == rounds ? nil : "\(ran) notifications ran for \(rounds) rounds"
        }
        #expect(outcome == nil, "\(outcome ?? "")")
    }

    @Test("a waiter that starts after a new member entered waits for that member, not the emptying before it")
    func newMemberKeepsLaterWaiterWaiting() async throws {
        let outcome = try await onDedicatedThread { () -> String? in
            let runtime = StealingRuntime(workers: 2)
            defer { runtime.shutdown() }
            let group = runtime.makeGroup()
            for round in 0..<10_000 {
                group.enter()
                group.leave()  // emptied: generation advanced
                group.enter()  // a new member
                if group.wait(timeout: .zero) != .timedOut {
                    return "round \(round): wait returned with a member still in the group"
                }
                group.leave()
                if group.wait(timeout: .zero) != .success {
                    return "round \(round): wait timed out on an empty group"
                }
            }
            return nil
        }
        #expect(outcome == nil, "\(outcome ?? "")")
    }

    @Test("50,000 fan-out rounds of two members; a poller of hasEmptied(since:) never sees a round end early")
    func pollerSeesEveryMember() async throws {
        let rounds = 50_000
        let early = try await onDedicatedThread { () -> Int in
            let runtime = StealingRuntime(workers: 1)
            defer { runtime.shutdown() }
            let group = runtime.makeGroup()
            let left = Atomic<Int>(0)
            let starts = [MutexSemaphore(value: 0), MutexSemaphore(value: 0)]
            let members = starts.map { start in
                PThread.spawn {
                    for _ in 0..<rounds {
                        start.wait()
                        left.add(1, ordering: .relaxed)
                        group.leave()
                    }
                }
            }
            var early = 0
            for round in 1...rounds {
                group.enter()
                group.enter()
                let seen = group.pendingGeneration()!
                for start in starts { start.signal() }
                while !group.hasEmptied(since: seen) {}
                // The acquiring load that saw the new generation makes both members' adds visible.
                if left.load(ordering: .relaxed) != 2 * round { early += 1 }
            }
            members.forEach { $0.join() }
            return early
        }
        #expect(early == 0, "\(early) rounds looked emptied before both members had left")
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_group.c, the parts that do not block: a group over blocks on a hundred
    /// serial queues released at once, its reuse, and the notify race of rdar://11445820 (scaled
    /// from 200,000 cycles to 2,000). libdispatch's notify went to the main queue, which needs
    /// `dispatch_main`; a serial queue stands in. The sleeping blocks are in
    /// `LibdispatchBlockingGroupSuite`.
    @Suite("dispatch_group.c: wait, reuse, notify")
    struct GroupSuite {
        @Test(
            "a group waits for one block on each of 100 serial queues released at once, and can be used again",
            arguments: Implementation.underTest)
        func hundredQueuesThenReuse(_ implementation: Implementation) {
            with(implementation) { api in
                let group = api.makeGroup(), ran = Atomic<Int>(0)
                do {  // each queue's only reference goes at the end of this scope, its block maybe still queued
                    for index in 0..<100 {
                        let queue = api.makeQueue("test.group.\(index)")
                        api.async(queue, group: group) {
                            usleep(50); ran.add(1, ordering: .sequentiallyConsistent)
                        }
                    }
                }
                #expect(api.wait(group: group, timeout: patience) == .success)
                #expect(ran.load(ordering: .sequentiallyConsistent) == 100, "wait returned before every block ran")
                api.async(api.global(.default), group: group) { ran.add(1, ordering: .sequentiallyConsistent) }
                #expect(api.wait(group: group, timeout: patience) == .success)
                #expect(
                    ran.load(ordering: .sequentiallyConsistent) == 101,
                    "the reused group's wait returned before its block ran")
            }
        }

        /// Each cycle: a group held open by an enter while one block goes to each of 1 to 8 new
        /// serial queues, then the leave, then notify. The notify must run once per cycle, after
        /// that cycle's blocks. As in libdispatch's test, the queues of a cycle are released from
        /// a block of a "release" queue, which is suspended until the next cycle begins, so
        /// releases race with the next cycle's notify.
        @Test(
            "notify runs once per cycle, after the cycle's blocks, while the queues are released meanwhile",
            arguments: Implementation.underTest)
        func notifyRace(_ implementation: Implementation) {
            with(implementation) { api in
                let cycles = 2_000
                let releaser = api.makeQueue("test.group.release"), notifier = api.makeQueue("test.group.notify")
                let tested = api.makeGroup(), failures = Failures()
                // written by notify blocks, read after the wait
                final class Completed: @unchecked Sendable { var cycle = 0 }
                let completed = Completed()
                var generator = SystemRandomNumberGenerator()
                api.suspend(releaser)
                var finishedCycles = 0
                for cycle in 1...cycles {
                    api.resume(releaser)
                    let count = Int.random(in: 1...8, using: &generator)
                    let group = api.makeGroup(), ran = Atomic<Int>(0)
                    api.enter(tested)
                    api.enter(group)
                    let queues = (0..<count).map { api.makeQueue("T\(cycle)-\($0)") }
                    for queue in queues {
                        api.async(queue, group: group) {
                            // Some work in the block, as libdispatch's test found the race more often with it.
                            _ = (1...20).reduce(0.0) { $0 + sin(Double($1) / Double(cycle)) }
                            ran.add(1, ordering: .sequentiallyConsistent)
                        }
                    }
                    api.leave(group)
                    api.notify(group, on: notifier) {
                        failures.check(
                            ran.load(ordering: .sequentiallyConsistent) == count,
                            "cycle \(cycle): "
                                + "notify ran after \(ran.load(ordering: .sequentiallyConsistent)) of \(count) blocks")
                        completed.cycle = cycle
                        api.leave(tested)
                    }
                    api.sync(releaser) {}
                    api.suspend(releaser)
                    api.async(releaser) { withExtendedLifetime(queues) {} }
                    guard api.wait(group: tested, timeout: patience) == .success else { break }
                    finishedCycles = cycle
                }
                api.resume(releaser)
                api.sync(releaser) {}
                #expect(finishedCycles == cycles, "cycle \(finishedCycles + 1)'s notify never ran")
                var last = 0
                api.sync(notifier) { last = completed.cycle }
                #expect(last == cycles)
                #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
            }
        }
    }

    /// tests/dispatch_group.c, its sleeping blocks: three blocks that sleep 7 s on three serial
    /// queues, a 5 s wait that must time out and a second that must not. The sleep is a wait the
    /// pool cannot see, so with as many such blocks as workers a pool that only counts its own
    /// waits stops: the third block starts when a sleeper ends, and the second wait times out.
    /// Scaled: one block more than the pool's workers (three on two CPUs), sleeping 2 s.
    @Suite("dispatch_group.c: blocks sleeping on more serial queues than there are workers")
    struct LibdispatchBlockingGroupSuite {
        @Test(
            "blocks sleeping on workers + 1 serial queues all run at once; the group's wait before they end times out",
            arguments: Implementation.underTest)
        func sleepersOverlap(_ implementation: Implementation) async throws {
            try await LibdispatchSuite.alone(implementation, test: "LibdispatchBlockingGroupSuite/sleepersOverlap") {
                api in
                let sleepers = api.workers + 1, sleep: Duration = .seconds(2), margin: Duration = .milliseconds(1_500)
                let group = api.makeGroup(), meter = ConcurrencyMeter()
                let start = MonotonicInstant.now
                do {
                    for index in 0..<sleepers {
                        api.async(api.makeQueue("test.group.sleeper\(index)"), group: group) {
                            meter.measure { LibdispatchSuite.sleepUnseen(sleep) }
                        }
                    }
                }
                #expect(
                    api.wait(group: group, timeout: .seconds(1)) == .timedOut,
                    "the group's wait returned before its sleeping blocks could have ended")
                // All at once, they end 2 s after the start; one after another on the workers, 4 s.
                let second = api.wait(
                    group: group, timeout: LibdispatchSuite.remaining(of: sleep + margin, from: start))
                #expect(
                    second == .success,
                    """
                    \(sleepers) blocks sleeping 2 s had not all ended 3.5 s after they were submitted: \
                    the last started only when a sleeper ended
                    """)
                if second != .success { _ = api.wait(group: group, timeout: patience) }
                #expect(meter.maximum == sleepers, "\(meter.maximum) of \(sleepers) sleeping blocks ran at once")
            }
        }
    }
}

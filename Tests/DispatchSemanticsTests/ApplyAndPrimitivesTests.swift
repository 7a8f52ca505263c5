#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing

/// apply, semaphores, groups and the cancelable group.
@Suite("apply, semaphores, groups")
struct ApplyAndPrimitivesTests {
    @Test(
        "apply on a concurrent queue runs every index once, with fixed strides and automatic",
        arguments: Implementation.underTest)
    func applyConcurrent(_ implementation: Implementation) throws {
        with(implementation) { api in
            for queue in [api.global(.default), api.makeQueue("test.apply", concurrent: true)] {
                for stride in [StridePolicy.fixed(1), .fixed(7), .fixed(10_000), .automatic] {
                    let counts = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 10_007)
                    for index in 0..<10_007 { (counts + index).initialize(to: Atomic(0)) }
                    defer { counts.deinitialize(count: 10_007); counts.deallocate() }
                    api.apply(on: queue, iterations: 10_007, stride: stride) { counts[$0].add(1, ordering: .relaxed) }
                    #expect((0..<10_007).allSatisfy { counts[$0].load(ordering: .relaxed) == 1 }, "stride \(stride)")
                }
            }
        }
    }

    @Test("apply on a serial queue runs in order on the caller", arguments: Implementation.underTest)
    func applySerial(_ implementation: Implementation) throws {
        with(implementation) { api in
            let caller = pthread_self()
            var order: [Int] = [], allOnCaller = true
            api.apply(on: api.makeQueue("test.serial-apply"), iterations: 1_000, stride: .fixed(1)) { index in
                order.append(index)
                allOnCaller = allOnCaller && isCurrent(caller)
            }
            #expect(order == Array(0..<1_000))
            // libdispatch runs a serial queue's apply on the caller too (it is a sync onto the queue).
            #expect(allOnCaller)
        }
    }

    @Test("nested apply inside apply completes", arguments: Implementation.underTest)
    func nestedApply(_ implementation: Implementation) throws {
        with(implementation) { api in
            let total = Atomic<Int>(0), queue = api.global(.default)
            api.apply(on: queue, iterations: 16, stride: .fixed(1)) { _ in
                api.apply(on: queue, iterations: 16, stride: .fixed(1)) { _ in
                    api.apply(on: queue, iterations: 16, stride: .automatic) { _ in total.add(1, ordering: .relaxed) }
                }
            }
            #expect(total.load(ordering: .relaxed) == 4_096)
        }
    }

    @Test(
        "semaphore: wait(timeout:) on the monotonic clock; a timed-out waiter never takes a later signal",
        arguments: Implementation.underTest)
    func semaphoreTimeouts(_ implementation: Implementation) throws {
        with(implementation) { api in
            let semaphore = api.makeSemaphore(0)
            let start = MonotonicInstant.now
            #expect(api.wait(semaphore, timeout: .milliseconds(30)) == .timedOut)
            #expect(MonotonicInstant.now.nanoseconds - start.nanoseconds >= 29_000_000, "returned before the timeout")
            #expect(api.signal(semaphore) == false, "signal with no waiter reported a wake-up")
            // The timed-out waiter left: the permit is there for the next wait.
            #expect(api.wait(semaphore, timeout: .zero) == .success)
            // Races between timeouts and signals: every signal is taken by exactly one success.
            let successes = Atomic<Int>(0), timeouts = Atomic<Int>(0), waiters = api.makeGroup()
            for _ in 0..<8 {
                api.enter(waiters)
                PThread.spawn {
                    for _ in 0..<200 {
                        if api.wait(semaphore, timeout: .microseconds(50)) == .success {
                            successes.add(1, ordering: .relaxed)
                        } else {
                            timeouts.add(1, ordering: .relaxed)
                        }
                    }
                    api.leave(waiters)
                }.detach()
            }
            for _ in 0..<800 { api.signal(semaphore); if Int.random(in: 0..<4) == 0 { usleep(10) } }
            #expect(api.wait(group: waiters, timeout: patience) == .success)
            // Permits left over are still in the semaphore: drain them.
            var left = 0
            while api.wait(semaphore, timeout: .zero) == .success { left += 1 }
            #expect(
                successes.load(ordering: .relaxed) + left == 800,
                "\(successes.load(ordering: .relaxed)) taken + \(left) left of 800 signals")
        }
    }

    @Test("semaphore: k permits are never held by more than k at once", arguments: Implementation.underTest)
    func semaphorePool(_ implementation: Implementation) throws {
        with(implementation) { api in
            let semaphore = api.makeSemaphore(2), meter = ConcurrencyMeter(), group = api.makeGroup()
            let queue = api.makeQueue("test.pool", concurrent: true)
            for _ in 0..<400 {
                api.async(queue, group: group) {
                    _ = api.wait(semaphore, timeout: nil)
                    meter.measure(spinning: 20)
                    api.signal(semaphore)
                }
            }
            #expect(api.wait(group: group, timeout: patience) == .success)
            #expect(meter.maximum <= 2)
        }
    }

    @Test(
        "group: wait, wait with a monotonic and a wall-clock timeout, notify, reuse",
        arguments: Implementation.underTest
    )
    func groupBasics(_ implementation: Implementation) throws {
        try with(implementation) { api in
            let group = api.makeGroup(), queue = api.makeQueue("test.notify")
            #expect(api.wait(group: group, timeout: .zero) == .success, "an empty group must not wait")
            let notified = Recorder<Int>()
            for round in 0..<3 {  // reuse: the same group, round after round
                let finished = Atomic<Int>(0), gate = Latch()
                for _ in 0..<20 {
                    api.async(api.global(.default), group: group) {
                        gate.wait(); finished.add(1, ordering: .sequentiallyConsistent)
                    }
                }
                #expect(api.wait(group: group, timeout: .milliseconds(20)) == .timedOut)
                #expect(api.wait(group: group, wallClockTimeout: .milliseconds(20)) == .timedOut)
                api.notify(group, on: queue) { notified.append(finished.load(ordering: .sequentiallyConsistent)) }
                gate.open()
                #expect(api.wait(group: group, timeout: nil) == .success)
                #expect(finished.load(ordering: .sequentiallyConsistent) == 20)
                try #require(eventually { notified.count == round + 1 })
                #expect(notified.all.last == 20, "notify ran before every member finished")
            }
            #expect(api.wait(group: group, wallClockTimeout: .milliseconds(1)) == .success)
        }
    }

    @Test(
        "group: a block adding work to its own group keeps wait from returning early",
        arguments: Implementation.underTest)
    func groupSpecialCase(_ implementation: Implementation) throws {
        with(implementation) { api in
            let group = api.makeGroup(), queue = api.makeQueue("test.fanout", concurrent: true)
            let finished = Atomic<Int>(0)
            @Sendable func spawn(_ depth: Int) {
                api.async(queue, group: group) {
                    if depth < 6 { spawn(depth + 1); spawn(depth + 1) }
                    usleep(100)
                    finished.add(1, ordering: .sequentiallyConsistent)
                }
            }
            spawn(0)
            #expect(api.wait(group: group, timeout: patience) == .success)
            #expect(
                finished.load(ordering: .sequentiallyConsistent) == 127,
                "wait returned before the blocks added by members")
        }
    }

    @Test(
        "group: the early-return rule (a waiter may return while another thread is still adding work)",
        arguments: Implementation.underTest)
    func groupEarlyReturn(_ implementation: Implementation) throws {
        with(implementation) { api in
            // man dispatch_group: if one thread waits while another submits, the count may reach
            // zero before all blocks are submitted, and wait returns then. Made certain here: the
            // submitter pauses between two members, and the waiter returns in the gap.
            let group = api.makeGroup(), firstDone = Latch(), secondSubmitted = Latch()
            api.async(api.global(.default), group: group) { firstDone.open() }
            #expect(firstDone.wait())
            #expect(api.wait(group: group, timeout: patience) == .success)  // returns in the gap
            api.async(api.global(.default), group: group) { secondSubmitted.open() }
            #expect(api.wait(group: group, timeout: patience) == .success)
            #expect(secondSubmitted.wait(timeout: .zero))
        }
    }
}

/// The guide's CancelableGroup, on FIFODispatch's own class and, for the oracle, on the same
/// recipe written over libdispatch's group (periodic timed waits).
@Suite("cancelable group")
struct CancelableGroupTests {
    @Test(
        "cancel ends the wait within a period; blocks ask whether they were canceled",
        arguments: Implementation.underTest)
    func cancel(_ implementation: Implementation) throws {
        with(implementation) { api in
            let group = api.makeGroup(), canceled = Atomic<Bool>(false), skipped = Atomic<Int>(0), gate = Latch()
            let queue = api.makeQueue("test.background", concurrent: true)
            for _ in 0..<50 {
                api.async(queue, group: group) {
                    gate.wait()
                    if canceled.load(ordering: .acquiring) { skipped.add(1, ordering: .relaxed); return }
                }
            }
            // The recipe: wait in slices, leave when canceled.
            let waiter = Recorder<String>()
            let waiting = PThread.spawn {
                while api.wait(group: group, timeout: .milliseconds(10)) == .timedOut {
                    if canceled.load(ordering: .acquiring) { waiter.append("canceled"); return }
                }
                waiter.append("completed")
            }
            usleep(30_000)
            canceled.store(true, ordering: .releasing)
            waiting.join()
            #expect(waiter.all == ["canceled"])
            gate.open()
            #expect(api.wait(group: group, timeout: patience) == .success)
            #expect(skipped.load(ordering: .relaxed) == 50, "blocks run after a cancel must see it")
        }
    }

    @Test("FIFODispatch's CancelableGroup: completed when nothing cancels, canceled within a period")
    func fifoCancelableGroup() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let queue = runtime.makeQueue(label: "test.cancelable", concurrent: true)
        let done = CancelableGroup(group: runtime.makeGroup(), period: .milliseconds(5))
        for _ in 0..<20 { queue.async(cancelable: done) { group in if !group.isCanceled { usleep(100) } } }
        #expect(done.wait() == .completed)
        let cancelable = CancelableGroup(group: runtime.makeGroup(), period: .milliseconds(5))
        let gate = Latch(), sawCancel = Atomic<Int>(0)
        for _ in 0..<4 {
            queue.async(cancelable: cancelable) { group in
                gate.wait(); if group.isCanceled { sawCancel.add(1, ordering: .relaxed) }
            }
        }
        PThread.spawn {
            usleep(20_000); cancelable.cancel()
        }.detach()
        #expect(cancelable.wait() == .canceled)
        gate.open()
        #expect(cancelable.group.wait(timeout: patience) == .success)
        #expect(sawCancel.load(ordering: .relaxed) == 4)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_apply.c: apply on the default global queue, apply nested three deep, and
    /// apply while every worker is busy spinning; with the two checks of apply on a queue that
    /// is not global which the issue tracker asked for (the queue is taken, serial targets count).
    @Suite("dispatch_apply.c: apply, nested apply, apply while every worker spins")
    struct ApplySuite {
        /// libdispatch's size for all three loops.
        static let iterations = 32

        @Test("apply on the global queue calls the body once for each index", arguments: Implementation.underTest)
        func everyIndexOnce(_ implementation: Implementation) {
            with(implementation) { api in
                let calls = Recorder<Int>()
                api.apply(on: api.global(.default), iterations: Self.iterations, stride: .fixed(1)) { calls.append($0) }
                #expect(calls.all.sorted() == Array(0..<Self.iterations))
            }
        }

        @Test(
            "apply nested three deep on the global queue returns after every innermost call",
            arguments: Implementation.underTest)
        func nestedThreeDeep(_ implementation: Implementation) {
            with(implementation) { api in
                // Each level's caller is itself an iteration of the level above: when every
                // worker is inside an outer iteration, only the callers are left to run the inner
                // loops, so an apply that waited for helpers instead of working would never end.
                let count = Atomic<Int>(0), n = Self.iterations, queue = api.global(.default)
                api.apply(on: queue, iterations: n, stride: .fixed(1)) { _ in
                    api.apply(on: queue, iterations: n, stride: .fixed(1)) { _ in
                        api.apply(on: queue, iterations: n, stride: .fixed(1)) { _ in count.add(1, ordering: .relaxed) }
                    }
                }
                #expect(count.load(ordering: .relaxed) == n * n * n)
            }
        }

        /// libdispatch's rdar://10718199: apply must not wait for helper threads while its caller
        /// could do the work. Every worker spins until the test says stop, after the apply: if
        /// the apply needed one of them, it could only end once they stop (or, here, once they
        /// give up after `patience`, which the last check catches). Alone in a child process on
        /// libdispatch: its pool is the process's, and while other suites keep as many of its
        /// threads runnable as there are CPUs, it rightly starts no thread for a further spinner
        /// (CI saw the spinners never all start).
        @Test("contended: with every worker spinning, apply still finishes", arguments: Implementation.underTest)
        func contended(_ implementation: Implementation) async throws {
            try await LibdispatchSuite.alone(implementation, test: "ApplySuite/contended") { api in
                let busy = api.workers, started = Atomic<Int>(0), finished = Atomic<Int>(0), stop = Atomic<Bool>(false)
                let spinners = api.makeGroup()
                for _ in 0..<busy {
                    api.async(api.global(.default), group: spinners) {
                        started.add(1, ordering: .sequentiallyConsistent)
                        let giveUp = MonotonicInstant.after(patience)
                        while !stop.load(ordering: .relaxed), MonotonicInstant.now < giveUp {}
                        finished.add(1, ordering: .sequentiallyConsistent)
                    }
                }
                #expect(
                    eventually { started.load(ordering: .sequentiallyConsistent) == busy },
                    "the spinners never all started")
                let count = Atomic<Int>(0)
                api.apply(on: api.global(.default), iterations: Self.iterations, stride: .fixed(1)) { _ in
                    count.add(1, ordering: .relaxed)
                }
                let finishedBeforeApplyReturned = finished.load(ordering: .sequentiallyConsistent)
                stop.store(true, ordering: .relaxed)
                #expect(api.wait(group: spinners, timeout: patience) == .success)
                #expect(count.load(ordering: .relaxed) == Self.iterations)
                #expect(
                    finishedBeforeApplyReturned == 0,
                    """
                    the apply returned only after \(finishedBeforeApplyReturned) spinning workers gave up: \
                    it waited for a helper
                    """)
            }
        }

        /// From the issue tracker: `dispatch_apply` on a queue that is not global is a sync onto
        /// it, so it waits for the blocks submitted before it and holds the queue meanwhile.
        @Test(
            "apply on a serial queue takes the queue: no iteration starts while an earlier block runs",
            arguments: Implementation.underTest)
        func serialQueueIsTaken(_ implementation: Implementation) throws {
            try with(implementation) { api in
                let queue = api.makeQueue("test.apply.serial")
                let running = Latch(), blockEnded = Atomic<Bool>(false)
                api.async(queue) {
                    running.open()
                    usleep(50_000)
                    blockEnded.store(true, ordering: .sequentiallyConsistent)
                }
                try #require(running.wait(), "the block never started")
                let early = Atomic<Int>(0), calls = Atomic<Int>(0)
                api.apply(on: queue, iterations: 8, stride: .fixed(1)) { _ in
                    if !blockEnded.load(ordering: .sequentiallyConsistent) { early.add(1, ordering: .relaxed) }
                    calls.add(1, ordering: .relaxed)
                }
                #expect(calls.load(ordering: .relaxed) == 8)
                #expect(
                    early.load(ordering: .relaxed) == 0,
                    """
                    \(early.load(ordering: .relaxed)) of 8 iterations ran while the 50 ms block submitted \
                    before the apply still ran
                    """)
            }
        }

        /// From the issue tracker: a concurrent queue runs one block at a time when it targets a
        /// serial queue, and apply on it is no exception.
        @Test(
            "apply on a concurrent queue that targets a serial queue runs one iteration at a time",
            arguments: Implementation.underTest)
        func serialTargetLimitsApply(_ implementation: Implementation) {
            with(implementation) { api in
                let top = api.makeQueue("test.apply.top")
                let queue = api.makeQueue("test.apply.wide", concurrent: true, qos: nil, target: top)
                let meter = ConcurrencyMeter(), calls = Atomic<Int>(0)
                let iterations = 4 * max(api.workers, 2)
                api.apply(on: queue, iterations: iterations, stride: .fixed(1)) { _ in
                    meter.measure(spinning: 2_000)
                    calls.add(1, ordering: .relaxed)
                }
                #expect(calls.load(ordering: .relaxed) == iterations)
                #expect(meter.maximum == 1, "\(meter.maximum) iterations ran at once through a serial target")
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_workqueue.c: every worker of the pool is asleep in sleep(), a wait the
    /// pool cannot see (not one of its own semaphores or groups), and a further block must still
    /// run within about 2 s (3 s here: libdispatch's monitor takes up to 1 s, and a busy CI
    /// machine under ThreadSanitizer needs the margin): the pool has to notice that no worker is
    /// running and add a thread (libdispatch's monitor looks once a second). With the two further
    /// cases the issue tracker asked for: blocks behind fixed sleeps, and a block waiting on a
    /// plain pthread condition for a block it submitted while the other workers spin.
    ///
    /// Each uses `api.workers` (FIFODispatch's pool width, libdispatch's CPU count), so it holds
    /// for any number of CPUs. libdispatch's pool is the process's and may already have spare
    /// threads, which only makes its cases easier.
    @Suite("dispatch_workqueue.c: work waiting behind workers blocked where the pool cannot see")
    struct LibdispatchBlockingWorkqueueSuite {
        @Test("with every worker asleep, a further block runs within 3 s", arguments: Implementation.underTest)
        func everyWorkerAsleep(_ implementation: Implementation) async throws {
            try await LibdispatchSuite.alone(
                implementation, test: "LibdispatchBlockingWorkqueueSuite/everyWorkerAsleep"
            ) { api in
                let sleepers = api.workers, asleep = Atomic<Int>(0), wake = Atomic<Bool>(false), group = api.makeGroup()
                for _ in 0..<sleepers {
                    api.async(api.global(.default), group: group) {
                        asleep.add(1, ordering: .sequentiallyConsistent)
                        // In long sleeps, up to `patience`, so that the test can end them early.
                        let giveUp = MonotonicInstant.after(patience)
                        while !wake.load(ordering: .sequentiallyConsistent), MonotonicInstant.now < giveUp {
                            LibdispatchSuite.sleepUnseen(.milliseconds(50))
                        }
                    }
                }
                #expect(
                    eventually { asleep.load(ordering: .sequentiallyConsistent) == sleepers },
                    "the sleepers never all started")
                let ran = Latch(), start = MonotonicInstant.now
                api.async(api.global(.default), group: group) { ran.open() }
                let inTime = ran.wait(timeout: .seconds(3))
                let took = LibdispatchSuite.elapsed(since: start)
                wake.store(true, ordering: .sequentiallyConsistent)
                #expect(
                    inTime,
                    "a block queued while all \(sleepers) workers slept had not run after \(took): no thread was added")
                #expect(api.wait(group: group, timeout: patience) == .success)
            }
        }

        /// From the issue tracker: as many blocks as workers sleep (up to 5 s, in short sleeps so
        /// they can end once the check is done) on the global queue; one more, queued behind them,
        /// must start well before they would end (within 3 s: libdispatch takes up to 1 s).
        @Test(
            "a block queued behind sleeping blocks on the global queue starts within 3 s",
            arguments: Implementation.underTest)
        func behindFixedSleeps(_ implementation: Implementation) async throws {
            try await LibdispatchSuite.alone(
                implementation, test: "LibdispatchBlockingWorkqueueSuite/behindFixedSleeps"
            ) { api in
                let group = api.makeGroup(), started = Latch(), start = MonotonicInstant.now
                let done = Atomic<Bool>(false)
                for _ in 0..<api.workers {
                    api.async(api.global(.default), group: group) {
                        let end = MonotonicInstant.after(.seconds(5))
                        while !done.load(ordering: .relaxed), MonotonicInstant.now < end {
                            LibdispatchSuite.sleepUnseen(.milliseconds(50))
                        }
                    }
                }
                api.async(api.global(.default), group: group) { started.open() }
                let inTime = started.wait(timeout: .seconds(3))
                done.store(true, ordering: .relaxed)
                #expect(
                    inTime,
                    """
                    the block behind \(api.workers) sleeping blocks had not started after \
                    \(LibdispatchSuite.elapsed(since: start))
                    """)
                #expect(api.wait(group: group, timeout: patience) == .success)
            }
        }

        /// From the issue tracker: a block waits on a plain pthread condition (a `Latch`:
        /// PThreadMutex and PThreadCondition, which the pool knows nothing of) for a block it
        /// submitted to the global queue, while every other worker spins until that condition
        /// holds. Only a thread the pool adds can run the submitted block.
        @Test(
            "a block waiting on a pthread condition for a block it submitted, the other workers spinning, finishes",
            arguments: Implementation.underTest)
        func waitOnPlainCondition(_ implementation: Implementation) async throws {
            try await LibdispatchSuite.alone(
                implementation, test: "LibdispatchBlockingWorkqueueSuite/waitOnPlainCondition"
            ) { api in
                let spinners = api.workers - 1, spinning = Atomic<Int>(0), holds = Atomic<Bool>(false),
                    giveUp = Atomic<Bool>(false)
                let group = api.makeGroup()
                for _ in 0..<spinners {
                    api.async(api.global(.default), group: group) {
                        spinning.add(1, ordering: .sequentiallyConsistent)
                        while !holds.load(ordering: .relaxed), !giveUp.load(ordering: .relaxed) {}
                    }
                }
                #expect(
                    eventually { spinning.load(ordering: .sequentiallyConsistent) == spinners },
                    "the spinners never all started")
                let condition = Latch(), finished = Latch()
                api.async(api.global(.default), group: group) {
                    api.async(api.global(.default), group: group) {
                        holds.store(true, ordering: .relaxed)
                        condition.open()
                    }
                    condition.wait(timeout: .seconds(3_600))  // the test opens it itself if it gives up
                    finished.open()
                }
                let inTime = finished.wait(timeout: patience)
                giveUp.store(true, ordering: .relaxed)
                condition.open()
                #expect(
                    inTime,
                    """
                    the waiting block never finished: the block it submitted did not run while the other \
                    \(spinners) worker(s) spun
                    """)
                let submittedRan = holds.load(ordering: .relaxed)
                #expect(submittedRan, "the submitted block never ran")
                #expect(api.wait(group: group, timeout: patience) == .success)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
@testable import StealingRuntime
import Synchronization
import Testing
import TestSupport

/// `async` jobs come from the submitting thread's `BlockCache` and go back to it once run
/// (Sources/PThreadPrimitives/README.md, "BlockCache"). Exactly-once under load is the 10,000,000
/// task stress test's; these check the recycling itself.
@Suite("work-stealing heap jobs are recycled per thread")
struct HeapJobRecyclingTests {
    @Test("a million blocks from one outside thread allocate a bounded number of jobs")
    func jobsAreRecycled() throws {
        let runtime = StealingRuntime(workers: 2)
        defer { runtime.shutdown() }
        // From a dedicated thread (its own cache), in rounds the pool finishes between; only that
        // thread's fresh allocations count (other tests run meanwhile).
        let allocations = Atomic<Int>(0)
        let ran = Atomic<Int>(0)
        let stuck = Atomic<Bool>(false)
        let submitter = PThread.spawn {
            let cache = BlockCache<HeapJob>.current.takeUnretainedValue()
            let before = cache.freshAllocations
            defer { allocations.store(cache.freshAllocations - before, ordering: .relaxed) }
            for _ in 0..<1_000 {
                let round = runtime.makeGroup()
                for _ in 0..<1_000 {
                    runtime.async(group: round) { ran.add(1, ordering: .relaxed) }
                }
                if round.wait(timeout: .seconds(60)) == .timedOut {
                    stuck.store(true, ordering: .relaxed)
                    round.wait()
                }
            }
        }
        submitter.join()
        let wasStuck = stuck.load(ordering: .relaxed)
        #expect(!wasStuck, "a round of 1,000 blocks took over 60 s: \(runtime.debugDescriptionForTests)")
        #expect(ran.load(ordering: .relaxed) == 1_000_000)
        // Without recycling this would be a million (one per block); with it, about one round's
        // worth: the jobs of a round are in flight at once, then come home.
        let allocated = allocations.load(ordering: .relaxed)
        #expect(allocated <= 10_000, "\(allocated) jobs for 1,000,000 blocks: jobs are not recycled")
    }

    @Test("a worker holds the jobs it ran for a thread outside the pool, and sends them home before it sleeps")
    func heldJobsGoHomeBeforeSleep() throws {
        let runtime = StealingRuntime(workers: 2)
        defer { runtime.shutdown() }
        let blocks = 10  // fewer than a batch: only going idle sends them
        let figures = Mutex<(first: Int, second: Int, asleep: Bool)?>(nil)
        PThread.spawn {
            let cache = BlockCache<HeapJob>.current.takeUnretainedValue()
            func round() -> Int {
                let before = cache.freshAllocations
                let group = runtime.makeGroup()
                for _ in 0..<blocks { runtime.async(group: group) {} }
                group.wait()
                return cache.freshAllocations - before
            }
            let first = round()
            // Asleep, each worker has sent what it held: the next round takes them back.
            let asleep = eventually { runtime.sleepingWorkers == 2 }
            figures.withLock { $0 = (first, round(), asleep) }
        }.join()
        let (first, second, asleep) = try #require(figures.withLock { $0 })
        try #require(asleep, "the workers did not go to sleep: \(runtime.debugDescriptionForTests)")
        #expect(first == blocks, "a new thread's first \(blocks) blocks took \(first) fresh jobs")
        #expect(second == 0, "\(second) of \(blocks) jobs were still away from home after the workers slept")
    }

    /// Held weakly, so the test sees the cache go away without touching freed memory.
    final class WeakCache: @unchecked Sendable {
        weak var cache: BlockCache<HeapJob>?
    }

    @Test(
        """
        a thread's job cache outlives the thread while its jobs are in flight, \
        and is freed when the last one comes home
        """)
    func orphanedCacheIsFreed() throws {
        let runtime = StealingRuntime(workers: 2)
        defer { runtime.shutdown() }
        for round in 0..<20 {
            let gate = MutexSemaphore(value: 0)
            let done = runtime.makeGroup()
            let held = WeakCache()
            // The blocks wait for the gate, so most of the thread's jobs are still queued or
            // running when it ends.
            PThread.spawn {
                held.cache = BlockCache<HeapJob>.current.takeUnretainedValue()
                for _ in 0..<100 {
                    runtime.async(group: done) {
                        gate.wait()
                        gate.signal()
                    }
                }
            }.join()
            #expect(held.cache != nil, "round \(round): the cache went away with jobs still in flight")
            gate.signal()
            try #require(done.wait(timeout: .seconds(60)) == .success, "round \(round): the blocks did not finish")
            #expect(
                eventually { held.cache == nil },
                "round \(round): the ended thread's cache was not freed after its last job came home")
        }
    }

    @Test("a job submitted from a worker comes from that worker's cache and a block that submits reuses its own job")
    func workerSubmissionsReuse() throws {
        let runtime = StealingRuntime(workers: 1)
        defer { runtime.shutdown() }
        let links = 100_000
        let fresh = Atomic<Int>(-1)
        let finished = MutexSemaphore(value: 0)
        // A chain: each link submits the next from the worker. The job is recycled before its
        // block runs, so the next link takes the same memory: one fresh job for the whole chain.
        @Sendable func link(_ remaining: Int, _ before: Int) {
            if remaining == 0 {
                fresh.store(
                    BlockCache<HeapJob>.current.takeUnretainedValue().freshAllocations - before, ordering: .relaxed)
                finished.signal()
                return
            }
            runtime.async { link(remaining - 1, before) }
        }
        runtime.async {
            link(links, BlockCache<HeapJob>.current.takeUnretainedValue().freshAllocations)
        }
        #expect(finished.wait(timeout: .seconds(60)) == .success, "the chain did not finish")
        let allocated = fresh.load(ordering: .relaxed)
        #expect(allocated >= 0 && allocated <= 1, "\(allocated) fresh jobs for a chain of \(links)")
    }
}

import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing

/// Millions of operations through the shared primitives, each checking that every task ran
/// exactly once. Counts, never timings, decide the verdict. Each body runs on a dedicated thread
/// (`onDedicatedThread`) so it never holds one of Swift Testing's cooperative threads for the
/// minutes it takes under ThreadSanitizer; expectations are checked back in the test's task.
@Suite("stress: primitives under millions of operations")
struct StressTests {
    @Test("ParallelLoop: 4,000,000 iterations with stride 1 on 4 threads run once each")
    func parallelLoopEveryIndexOnce() async throws {
        let wrong = try await onDedicatedThread { () -> Int in
            let iterations = 4_000_000
            let counts = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: iterations)
            counts.initialize(repeating: 0)
            defer { counts.deallocate() }
            let pool = ThreadPerJob()
            ParallelLoop.run(iterations: iterations, stride: .fixed(1), workers: 4, submit: pool.submit) { piece in
                for index in piece { counts[index] &+= 1 }
            }
            pool.joinAll()
            return counts.filter { $0 != 1 }.count
        }
        #expect(wrong == 0, "\(wrong) indices did not run exactly once")
    }

    @Test("Strand: 1,000,000 blocks from 4 submitting threads run once each, one at a time")
    func strandEveryBlockOnce() async throws {
        let perThread = 250_000, threads = 4
        let (totals, overlapCount) = try await onDedicatedThread { () -> ([Int], Int) in
        let pool = ThreadPerJob()
        // A strand whose drains run on fresh threads: the worst case for hand-over ordering.
        let strand = Strand(label: "stress") { pool.submit($0) }
        let ran = Unchecked<[Int]>(Array(repeating: 0, count: threads))  // written only by strand blocks
        let overlaps = Atomic<Int>(0)
        let inside = Atomic<Bool>(false)
        let submitters = (0..<threads).map { thread in
            PThread.spawn {
                for _ in 0..<perThread {
                    strand.async {
                        if inside.exchange(true, ordering: .relaxed) { overlaps.add(1, ordering: .relaxed) }
                        ran.value[thread] += 1
                        inside.store(false, ordering: .relaxed)
                    }
                }
            }
        }
        submitters.forEach { $0.join() }
        let totals = strand.sync { ran.value }
        pool.joinAll()
        return (totals, overlaps.load(ordering: .relaxed))
        }
        #expect(totals == Array(repeating: perThread, count: threads))
        #expect(overlapCount == 0)
    }

    @Test("MutexSemaphore: timed-out waiters never lose or duplicate a permit (200,000 operations)")
    func semaphoreTimeoutsKeepTheCount() async throws {
        let signals = 100_000
        let (acquiredCount, leftover, wokeCount) = try await onDedicatedThread { () -> (Int, Int, Int) in
        let semaphore = MutexSemaphore(value: 0)
        let waiters = 4
        let acquired = Atomic<Int>(0)
        let woke = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let waiting = (0..<waiters).map { _ in
            PThread.spawn {
                while !stop.load(ordering: .relaxed) {
                    if semaphore.wait(timeout: .microseconds(50)) == .success { acquired.add(1, ordering: .relaxed) }
                }
            }
        }
        for _ in 0..<signals {
            if semaphore.signal() { woke.add(1, ordering: .relaxed) }
        }
        stop.store(true, ordering: .relaxed)
        waiting.forEach { $0.join() }
        var leftover = 0
        while semaphore.wait(timeout: .zero) == .success { leftover += 1 }
        return (acquired.load(ordering: .relaxed), leftover, woke.load(ordering: .relaxed))
        }
        #expect(acquiredCount + leftover == signals, "permits lost or duplicated")
        #expect(wokeCount <= acquiredCount, "signal() reported more woken waiters than acquisitions")
    }

    @Test("MutexGroup: 1,000,000 enter/leave pairs from 4 threads; wait sees every one")
    func groupCountsEveryMember() async throws {
        let perThread = 250_000
        let (leftCount, emptied) = try await onDedicatedThread { () -> (Int, Bool) in
        let group = MutexGroup<Strand>()
        let left = Atomic<Int>(0)
        group.enter()  // hold the group open while members come and go
        let members = (0..<4).map { _ in
            PThread.spawn {
                for _ in 0..<perThread {
                    group.enter()
                    left.add(1, ordering: .relaxed)
                    group.leave()
                }
            }
        }
        members.forEach { $0.join() }
        group.leave()
        group.wait()
        return (left.load(ordering: .relaxed), group.wait(timeout: .zero) == .success)
        }
        #expect(leftCount == 4 * perThread)
        #expect(emptied)
    }
}

/// Runs each submitted job on a new pthread: the crudest pool, with no ordering of its own, so
/// a primitive that relies on its pool for ordering is caught.
final class ThreadPerJob: @unchecked Sendable {
    private let mutex = PThreadMutex()
    private var threads: [PThread] = []

    func submit(_ job: @escaping @Sendable () -> Void) {
        let thread = PThread.spawn(job)
        mutex.withLock { threads.append(thread) }
    }

    func joinAll() {
        while let batch = Optional(mutex.withLock { () -> [PThread] in defer { threads = [] }; return threads }), !batch.isEmpty {
            batch.forEach { $0.join() }
        }
    }
}

final class Unchecked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

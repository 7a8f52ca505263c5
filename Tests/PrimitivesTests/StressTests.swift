#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing
import TestSupport

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

    /// Helpers start with empty shares, so every piece a helper runs is one it stole. The caller's
    /// first piece waits until each helper has run one, so the steals happen however late the
    /// helper threads start (no timing decides it), and with three thieves on the caller's share
    /// and on each other's.
    @Test("ParallelLoop: helpers steal from the caller's share and from each other; every index runs once")
    func parallelLoopSharesAreStolenOnce() async throws {
        let (wrong, helperPieces, waitedTooLong) = try await onDedicatedThread { () -> (Int, Int, Bool) in
            let iterations = 1_000_000, threads = 4
            let counts = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: iterations)
            counts.initialize(repeating: 0)
            defer { counts.deallocate() }
            let callerThread = pthread_self()
            let helpersWithAPiece = Atomic<Int>(0)
            let helperPieces = Atomic<Int>(0)
            let waitedTooLong = Atomic<Bool>(false)
            let pool = ThreadPerJob()
            let helpersSeen = Unchecked<Set<pthread_t>>([]), helpersSeenLock = PThreadMutex()
            ParallelLoop.run(iterations: iterations, stride: .fixed(1), workers: threads, submit: pool.submit) {
                piece in
                for index in piece { counts[index] &+= 1 }
                if pthread_equal(pthread_self(), callerThread) != 0 {
                    guard piece.lowerBound == 0 else { return }
                    let deadline = MonotonicInstant.after(.seconds(60))
                    while helpersWithAPiece.load(ordering: .acquiring) < threads - 1 {
                        if MonotonicInstant.now >= deadline { waitedTooLong.store(true, ordering: .relaxed); return }
                        sched_yield()
                    }
                } else {
                    helperPieces.add(piece.count, ordering: .relaxed)
                    if helpersWithAPiece.load(ordering: .relaxed) < threads - 1,
                        helpersSeenLock.withLock({ helpersSeen.value.insert(pthread_self()).inserted })
                    {
                        helpersWithAPiece.add(1, ordering: .releasing)
                    }
                }
            }
            pool.joinAll()
            return (
                counts.filter { $0 != 1 }.count, helperPieces.load(ordering: .relaxed),
                waitedTooLong.load(ordering: .relaxed)
            )
        }
        #expect(!waitedTooLong, "a helper ran no piece within 60 s while the caller held its first one")
        #expect(wrong == 0, "\(wrong) indices did not run exactly once")
        #expect(helperPieces > 0)
    }

    /// The loop's caller runs every piece when no helper starts in time; the helpers that start
    /// after it returned find every share empty and must not call the piece function (whose
    /// context is gone by then).
    @Test("ParallelLoop: helpers that start after the loop returned run nothing", arguments: [2, 100_000])
    func parallelLoopLateHelpersRunNothing(iterations: Int) async throws {
        let (ranLate, wrong) = try await onDedicatedThread { () -> (Int, Int) in
            let held = Unchecked<[@Sendable () -> Void]>([])
            let counts = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: iterations)
            counts.initialize(repeating: 0)
            defer { counts.deallocate() }
            let returned = Atomic<Bool>(false)
            let ranLate = Atomic<Int>(0)
            ParallelLoop.run(iterations: iterations, stride: .fixed(1), workers: 4, submit: { held.value.append($0) }) {
                piece in
                if returned.load(ordering: .relaxed) { ranLate.add(1, ordering: .relaxed) }
                for index in piece { counts[index] &+= 1 }
            }
            returned.store(true, ordering: .relaxed)
            held.value.forEach { $0() }
            return (ranLate.load(ordering: .relaxed), counts.filter { $0 != 1 }.count)
        }
        #expect(ranLate == 0)
        #expect(wrong == 0)
    }

    @Test("Strand: 1,000,000 blocks from 4 submitting threads run once each, one at a time")
    func strandEveryBlockOnce() async throws {
        let perThread = 250_000, threads = 4
        let (totals, overlapCount) = try await onDedicatedThread { () -> ([Int], Int) in
            let pool = ThreadPerJob()
            // A strand whose drains run on fresh threads: the worst case for hand-over ordering.
            let strand = Strand(label: "stress") { pool.submit($0) }
            let counts = Self.runSections(on: strand, threads: threads, perThread: perThread) { _ in false }
            pool.joinAll()
            return counts
        }
        #expect(totals == Array(repeating: perThread, count: threads))
        #expect(overlapCount == 0)
    }

    /// How a stress test's sections reach the strand.
    enum SectionMix: String, CaseIterable, CustomStringConvertible {
        /// Syncs only: the fast paths (an idle strand taken, an empty line given back) against
        /// polling callers and callers in line.
        case allSync = "all sync"
        /// Syncs that take the strand over from a queued drain, or wait in line behind one.
        case halfSync = "half sync, half async"
        /// Mostly syncs: an async now and then marks the line while a sync runs, so the sync's
        /// release must see it and start a drain.
        case threeSyncsToOneAsync = "three syncs to one async"

        var description: String { rawValue }

        func isSync(_ round: Int) -> Bool {
            switch self {
            case .allSync: true
            case .halfSync: round % 2 == 0
            case .threeSyncsToOneAsync: round % 4 != 3
            }
        }
    }

    /// Sections per mix in the test below: 1,000,000, or STRAND_STRESS_SECTIONS (a multiple of 4;
    /// the ThreadSanitizer run in .ci/run uses 400,000, where 1,000,000 per mix took 86 s).
    static let strandSections: Int = {
        let sections = getenv("STRAND_STRESS_SECTIONS").flatMap { Int(String(cString: $0)) } ?? 1_000_000
        precondition(
            sections > 0 && sections % 4 == 0,
            "STRAND_STRESS_SECTIONS must be a positive multiple of 4, got \(sections)")
        return sections
    }()

    @Test(
        "Strand: 1,000,000 mixed syncs and asyncs (STRAND_STRESS_SECTIONS) from 4 threads run once each, one at a time",
        arguments: SectionMix.allCases)
    func strandSyncAndAsyncOnce(mix: SectionMix) async throws {
        let threads = 4, perThread = Self.strandSections / threads
        let (totals, overlapCount) = try await onDedicatedThread { () -> ([Int], Int) in
            // Two workers, as the backends run: a thread per drain job (ThreadPerJob) would start
            // one for most of the asyncs here, and hold them all until the end.
            let pool = TwoWorkers()
            let strand = Strand(label: "stress") { pool.submit($0) }
            let counts = Self.runSections(on: strand, threads: threads, perThread: perThread) { mix.isSync($0) }
            pool.stop()
            return counts
        }
        #expect(totals == Array(repeating: perThread, count: threads), "\(mix)")
        #expect(overlapCount == 0, "\(mix)")
    }

    /// `threads` threads each put `perThread` sections on `strand`, a `sync` where `isSync` says
    /// so and an `async` otherwise. Returns the sections that ran per thread (read by a last
    /// `sync`, after every earlier one) and how many found another section running.
    static func runSections(
        on strand: Strand, threads: Int, perThread: Int, isSync: @escaping @Sendable (Int) -> Bool
    ) -> ([Int], Int) {
        let ran = Unchecked<[Int]>(Array(repeating: 0, count: threads))  // written only by the strand's sections
        let overlaps = Atomic<Int>(0)
        let inside = Atomic<Bool>(false)
        let submitters = (0..<threads).map { thread in
            PThread.spawn {
                for round in 0..<perThread {
                    let section: @Sendable () -> Void = {
                        if inside.exchange(true, ordering: .relaxed) { overlaps.add(1, ordering: .relaxed) }
                        ran.value[thread] += 1
                        inside.store(false, ordering: .relaxed)
                    }
                    if isSync(round) { strand.sync(section) } else { strand.async(section) }
                }
            }
        }
        submitters.forEach { $0.join() }
        return (strand.sync { ran.value }, overlaps.load(ordering: .relaxed))
    }

    /// The semaphores with a timed wait and a `signal()` that says whether it woke a waiter.
    enum SemaphoreKind: String, CaseIterable, CustomStringConvertible {
        case mutex, token
        var description: String { rawValue }
        func make(_ value: Int) -> any CountingSemaphore {
            switch self {
            case .mutex: MutexSemaphore(value: value)
            case .token: TokenSemaphore(value: value)
            }
        }
    }

    @Test(
        "MutexSemaphore and TokenSemaphore: timed-out waiters never lose or duplicate a permit (200,000 operations)",
        arguments: SemaphoreKind.allCases)
    func semaphoreTimeoutsKeepTheCount(kind: SemaphoreKind) async throws {
        let signals = 100_000
        let (acquiredCount, leftover, wokeCount) = try await onDedicatedThread { () -> (Int, Int, Int) in
            let semaphore = kind.make(0)
            let waiters = 4
            let acquired = Atomic<Int>(0)
            let woke = Atomic<Int>(0)
            let stop = Atomic<Bool>(false)
            let waiting = (0..<waiters).map { _ in
                PThread.spawn {
                    while !stop.load(ordering: .relaxed) {
                        if semaphore.wait(timeout: .microseconds(50)) == .success {
                            acquired.add(1, ordering: .relaxed)
                        }
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
        #expect(acquiredCount + leftover == signals, "\(kind): permits lost or duplicated")
        #expect(wokeCount <= acquiredCount, "\(kind): signal() reported more woken waiters than acquisitions")
    }

    @Test("TokenSemaphore: 1,000,000 hand-offs between two threads, each woken by exactly its own signal")
    func tokenSemaphoreHandOffs() async throws {
        let handOffs = 1_000_000
        let (wrong, leftovers) = try await onDedicatedThread { () -> (Int, [Int]) in
            // Polls that succeed, polls that run out and sleeps all happen here: the budget
            // adapts as the two threads fall in and out of step.
            let inboxes = [TokenSemaphore(value: 0), TokenSemaphore(value: 0)]
            let token = Atomic<Int>(-1)
            let wrong = Atomic<Int>(0)
            let sides = (0..<2).map { side in
                PThread.spawn {
                    for handOff in 0..<handOffs {
                        if handOff & 1 == side {
                            token.store(handOff, ordering: .releasing)
                            inboxes[1 - side].signal()
                        } else {
                            inboxes[side].wait()
                            if token.load(ordering: .acquiring) != handOff { wrong.add(1, ordering: .relaxed) }
                        }
                    }
                }
            }
            sides.forEach { $0.join() }
            let leftovers = inboxes.map { semaphore in
                var permits = 0
                while semaphore.tryWait() { permits += 1 }
                return permits
            }
            return (wrong.load(ordering: .relaxed), leftovers)
        }
        #expect(wrong == 0, "\(wrong) hand-offs woke a side before their signal")
        #expect(leftovers == [0, 0], "permits left: \(leftovers)")
    }

    /// Its waiters out of the count look every `SpinBudget.pausesBetweenLooks` rounds when another
    /// thread waited last (`LockOrHandOff`): the holder may keep the permit for many sections.
    @Test("TokenSemaphore as a lock: 1,000,000 sections from 4 threads, each once, never two holders")
    func tokenSemaphoreAsLock() async throws {
        let outcome = try await onDedicatedThread {
            semaphoreAsLock(TokenSemaphore(value: 1), threads: 4, sectionsPerThread: 250_000)
        }
        #expect(outcome == SemaphoreAsLockOutcome(sections: 1_000_000, mostHolders: 1))
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
        while let batch = Optional(
            mutex.withLock { () -> [PThread] in
                defer { threads = [] }; return threads
            }), !batch.isEmpty
        {
            batch.forEach { $0.join() }
        }
    }
}

/// Two threads taking jobs in submission order from one list.
final class TwoWorkers: @unchecked Sendable {
    private let mutex = PThreadMutex()
    private let queued = MutexSemaphore(value: 0)
    /// nil asks a worker to stop.
    private var jobs: [(@Sendable () -> Void)?] = []
    private var workers: [PThread] = []

    init() {
        workers = (0..<2).map { _ in
            PThread.spawn { [self] in
                while true {
                    queued.wait()
                    guard let job = mutex.withLock({ jobs.removeFirst() }) else { return }
                    job()
                }
            }
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        mutex.withLock { jobs.append(job) }
        queued.signal()
    }

    /// Runs every job submitted so far, then joins the workers.
    func stop() {
        mutex.withLock { jobs.append(contentsOf: [nil, nil]) }
        queued.signal()
        queued.signal()
        workers.forEach { $0.join() }
    }
}

final class Unchecked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

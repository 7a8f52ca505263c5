#if canImport(Glibc)
import Glibc
#endif
import CThreadInfo
@testable import FIFODispatch
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing
import TestSupport

/// Blocks that block where the pool cannot see (a plain pthread condition, a sleep): the stall
/// monitor adds a thread, as libdispatch's workqueue monitor does on Linux. No test here asserts
/// a time: each waits for a behaviour (the queued block ran) and prints how long it took.
@Suite("FIFODispatch stall monitor", .serialized)
struct StallMonitorTests {
    /// One round on a fresh pool: every worker blocks on a condition that only a block queued
    /// after them opens. Returns how long that block waited for a thread, or nil if it never ran.
    static func blockedPoolRound(workers: Int) -> Duration? {
        let runtime = FIFODispatch(workers: workers)
        defer { runtime.shutdown() }
        let blocked = MutexSemaphore(value: 0)
        let release = Latch()
        for _ in 0..<runtime.workers {
            runtime.async {
                _ = blocked.signal()
                release.wait()
            }
        }
        for _ in 0..<runtime.workers { blocked.wait() }
        let submitted = ContinuousClock.now
        let startedAfter = Locked<Duration?>(nil)
        runtime.async {
            startedAfter.withLock { $0 = ContinuousClock.now - submitted }
            release.open()
        }
        guard release.wait(timeout: .seconds(60)) else {
            release.open()  // let the blockers go so shutdown can join them
            return nil
        }
        return startedAfter.withLock { $0 }
    }

    @Test(
        "every worker blocked on a plain condition until a queued block runs: the monitor adds a thread, 10 fresh pools"
    )
    func blockedPoolGetsAThread() throws {
        var waits: [Duration] = []
        for round in 1...10 {
            let waited = Self.blockedPoolRound(workers: 2)
            try #require(waited != nil, "round \(round): the queued block never ran while every worker waited for it")
            waits.append(waited!)
        }
        let sorted = waits.sorted()
        print(
            "fifo-dispatch stall reaction, 2 workers: median \(sorted[5]), min \(sorted[0]), "
                + "max \(sorted[9]) (10 pools)")
    }

    @Test("a block that sleeps on every worker does not hold up a block queued behind them")
    func sleepingWorkersGetAThread() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let sleepersDone = Atomic<Int>(0)
        let group = runtime.makeGroup()
        for _ in 0..<runtime.workers {
            runtime.async(group: group) {
                sleep(4)
                sleepersDone.add(1, ordering: .sequentiallyConsistent)
            }
        }
        let finishedBeforeIt = Locked<Int?>(nil)
        usleep(50_000)  // the sleepers have their workers
        runtime.async(group: group) {
            finishedBeforeIt.withLock { $0 = sleepersDone.load(ordering: .sequentiallyConsistent) }
        }
        #expect(group.wait(timeout: .seconds(60)) == .success)
        #expect(finishedBeforeIt.withLock { $0 } == 0, "the queued block ran only after the sleeping blocks ended")
    }

    @Test("a pool whose workers all compute is not grown: they are runnable, so it is busy, not stalled")
    func busyPoolIsNotGrown() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let stop = Atomic<Bool>(false)
        let computing = MutexSemaphore(value: 0)
        for _ in 0..<runtime.workers {
            runtime.async {
                _ = computing.signal()
                while !stop.load(ordering: .relaxed) {}
            }
        }
        for _ in 0..<runtime.workers { computing.wait() }
        let ran = MutexSemaphore(value: 0)
        runtime.async { _ = ran.signal() }
        // Six of the monitor's ticks with a block waiting and every worker runnable.
        usleep(UInt32(StallMonitor.defaultInterval.nanosecondsSaturating / 1_000) * 6)
        let threads = runtime.threadCount
        stop.store(true, ordering: .relaxed)
        ran.wait()
        #expect(
            threads == runtime.workers, "the monitor grew a pool whose every worker was computing: \(threads) threads")
    }

    @Test("threads the monitor added retire once the pool is idle")
    func addedThreadsRetire() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let release = Latch()
        let blocked = MutexSemaphore(value: 0)
        for _ in 0..<runtime.workers {
            runtime.async {
                _ = blocked.signal()
                release.wait()
            }
        }
        for _ in 0..<runtime.workers { blocked.wait() }
        runtime.async { release.open() }
        #expect(release.wait(timeout: .seconds(60)))
        #expect(runtime.threadCount > runtime.workers, "no thread was added")
        #expect(
            eventually { runtime.threadCount == runtime.workers },
            "still \(runtime.threadCount) threads after a minute idle")
    }

    @Test("worker threads carry a name of their own, not their creator's")
    func workersAreNamed() throws {
        let names = Locked<[String]>([])
        let creator = PThread.spawn(name: "stall-test-main") {
            let runtime = FIFODispatch(workers: 2)
            defer { runtime.shutdown() }
            let group = runtime.makeGroup()
            for _ in 0..<20 {
                runtime.async(group: group) {
                    var buffer = [CChar](repeating: 0, count: 32)
                    _ = rb_thread_get_name(&buffer, buffer.count)
                    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    names.withLock { $0.append(name) }
                }
            }
            _ = group.wait(timeout: .seconds(60))
        }
        creator.join()
        let seen = names.withLock { $0 }
        #expect(seen.count == 20)
        #expect(seen.allSatisfy { $0 == "fifo-dispatch" }, "worker names: \(Set(seen))")
    }
}

/// A value behind a pthread mutex (ThreadSanitizer cannot see Synchronization's `Mutex`).
final class Locked<Value>: @unchecked Sendable {
    private let lock = PThreadMutex()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

/// A one-shot latch on a pthread mutex and condition: a wait the pool cannot see.
final class Latch: @unchecked Sendable {
    private let lock = PThreadMutex()
    private let condition = PThreadCondition()
    private var isOpen = false
    func open() {
        lock.withLock {
            isOpen = true; condition.broadcast()
        }
    }
    /// False when `timeout` passed first.
    @discardableResult
    func wait(timeout: Duration = .seconds(600)) -> Bool {
        let deadline = MonotonicInstant.after(timeout)
        lock.lock()
        defer { lock.unlock() }
        while !isOpen { if !condition.wait(lock, until: deadline) { return isOpen } }
        return true
    }
}

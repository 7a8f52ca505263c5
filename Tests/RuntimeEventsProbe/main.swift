// Runs scenarios whose scheduling events are known and prints each one's counts, one line per
// scenario: "name event=count ...". A process of its own, because the counts are the process's
// totals and tests in one process run side by side (RuntimeEventsTests reads these lines).
import FIFODispatch
import PThreadPrimitives
import RuntimeKit
import StealingRuntime
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

func totals() -> [UInt64] {
    let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: RuntimeEvent.count)
    defer { buffer.deallocate() }
    RuntimeEvents.read(into: buffer)
    return Array(UnsafeBufferPointer(start: buffer, count: RuntimeEvent.count))
}

/// The events `body` caused, printed under `name`.
func scenario(_ name: String, _ body: () -> Void) {
    let before = totals()
    body()
    let after = totals()
    let counts = RuntimeEvent.allCases.map { "\($0.name)=\(after[$0.rawValue] - before[$0.rawValue])" }
    print(([name] + counts).joined(separator: " "))
}

final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func raise() { value.store(true, ordering: .releasing) }
    var isRaised: Bool { value.load(ordering: .acquiring) }
    func await() { while !isRaised { sched_yield() } }
}

func fib(_ n: Int, on pool: StealingRuntime) -> Int {
    if n < 2 { return n }
    let (a, b) = pool.join({ fib(n - 1, on: pool) }, { fib(n - 2, on: pool) })
    return a + b
}

// One worker: nobody to steal from, every join runs both halves itself. fib(15) joins 986 times.
do {
    let pool = StealingRuntime(workers: 1)
    scenario("one-worker-fib15") { precondition(fib(15, on: pool) == 610) }
    pool.shutdown()
}

// Two workers: the left half waits until the right half has run, so the other worker must have
// stolen it: one steal of one job, one join whose half was stolen.
do {
    let pool = StealingRuntime(workers: 2)
    scenario("two-workers-stolen-half") {
        let ran = Flag()
        _ = pool.join({ ran.await() }, { ran.raise() })
    }
    pool.shutdown()
}

// fifo-dispatch: 1,000 syncs on an idle queue run on the caller; one sync behind a block that
// holds the queue has to wait.
do {
    let runtime = FIFODispatch(workers: 2)
    let queue = runtime.makeSerialQueue(label: "probe")
    scenario("fifo-idle-syncs-1000") { for _ in 0..<1_000 { queue.sync {} } }
    scenario("fifo-sync-behind-a-block") {
        let started = Flag(), release = Flag()
        queue.async {
            started.raise()
            release.await()
        }
        started.await()
        let slowBefore = totals()[RuntimeEvent.syncSlow.rawValue]
        let waiter = PThread.spawn { queue.sync {} }
        // Release only once the waiter has taken the slow path: a fixed number of yields was not
        // always enough for a new thread on a loaded machine, and its sync was then fast.
        while totals()[RuntimeEvent.syncSlow.rawValue] == slowBefore { sched_yield() }
        release.raise()
        waiter.join()
    }
    // 1,000 blocks: each takes a node, from the cache or freshly allocated.
    scenario("fifo-async-1000") {
        let done = MutexSemaphore(value: 0)
        for index in 0..<1_000 { queue.async { if index == 999 { done.signal() } } }
        done.wait()
    }
    // A group wait whose member cannot end until the wait has slept: its poll runs out (one
    // wait slept) after polling the whole of a new group's budget, yielding every 64 rounds.
    scenario("fifo-group-wait-slept") {
        let group = runtime.makeGroup(), release = Flag()
        runtime.async(group: group) { release.await() }
        let sleptBefore = totals()[RuntimeEvent.waitsSlept.rawValue]
        let releaser = PThread.spawn {
            while totals()[RuntimeEvent.waitsSlept.rawValue] == sleptBefore { sched_yield() }
            release.raise()
        }
        group.wait()
        releaser.join()
    }
    runtime.shutdown()
}

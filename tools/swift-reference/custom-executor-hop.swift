// Reference for swift-async's actor-hop on a custom serial executor: the cheapest custom executor
// there is (every job into one Mutex-guarded array that the main thread drains in a loop: no
// queue, no wake-up, no other thread), and two actors on two of them calling each other from a
// task with no task-executor preference. Beside it, the same on Swift's default actors. Prints ns
// per hop and how many times Swift called `enqueue`.
//
// Each round touches the caller's own state after the call: without that, the compiler drops the
// hop back to the caller (nothing after the call needs its executor), the task stays on the
// partner's executor, and the loop measures calls, not hops (an earlier version of this file did:
// 2 enqueues for 4 million "hops"). With it, on Swift 6.3.1 (Linux), every hop between the custom
// executors was one `enqueue` (4,000,001 for 4 million hops) and cost 85-92 ns against 31-43 on
// default actors: Swift switches threads in place only off and onto a default actor or the
// generic executor (`canGiveUpThreadForSwitch` in the runtime's Actor.cpp), so no custom
// executor's hop between two executors can reach a default actor's.
// Build and run (from the repository root):
//   swiftc -O tools/swift-reference/custom-executor-hop.swift -o /tmp/custom-executor-hop
//   for i in 1 2 3; do /tmp/custom-executor-hop; done
import Glibc
import Synchronization

let enqueues = Atomic<Int>(0)
let pending = Mutex<[(UnownedJob, Int)]>([])
nonisolated(unsafe) var executors: [UnownedSerialExecutor] = []

final class LoopExecutor: SerialExecutor, @unchecked Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let index = index
        enqueues.add(1, ordering: .relaxed)
        pending.withLock { $0.append((job, index)) }
    }
}

actor Side {
    let executor: LoopExecutor
    var received = 0
    init(_ executor: LoopExecutor) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    func receive() -> Int {
        // A hop that did not reach this executor would trap here.
        if received % 100_000 == 0 { preconditionIsolated() }
        received &+= 1
        return received
    }
    func rally(with other: Side, rounds: Int) async -> Int {
        var sum = 0
        for _ in 0..<rounds {
            sum &+= await other.receive()
            received &+= 1  // needs this actor: the hop back stays
        }
        return sum
    }
}

actor DefaultSide {
    var received = 0
    func receive() -> Int {
        received &+= 1
        return received
    }
    func rally(with other: DefaultSide, rounds: Int) async -> Int {
        var sum = 0
        for _ in 0..<rounds {
            sum &+= await other.receive()
            received &+= 1
        }
        return sum
    }
}

func nanoseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

let rounds = 2_000_000
let first = LoopExecutor(0), second = LoopExecutor(1)
executors = [first.asUnownedSerialExecutor(), second.asUnownedSerialExecutor()]
let a = Side(first), b = Side(second)
let finished = Atomic<Bool>(false)
let customStart = nanoseconds()
Task.detached {
    _ = await a.rally(with: b, rounds: rounds)
    finished.store(true, ordering: .releasing)
}
while !finished.load(ordering: .acquiring) {
    guard let (job, index) = pending.withLock({ $0.popLast() }) else { continue }
    job.runSynchronously(on: executors[index])
}
let custom: Double = (nanoseconds() - customStart) / Double(2 * rounds)
print("custom serial executors, no preference:", custom, "ns per hop;", enqueues.load(ordering: .relaxed), "enqueues")

let c = DefaultSide(), d = DefaultSide()
let defaultStart = nanoseconds()
_ = await c.rally(with: d, rounds: rounds)
let defaults: Double = (nanoseconds() - defaultStart) / Double(2 * rounds)
print("default actors:", defaults, "ns per hop")

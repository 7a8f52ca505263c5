import PThreadPrimitives
import RuntimeKit
import Synchronization

/// semaphore: k permits, timeouts, signal reports a woken waiter. These use threads of the
/// scenario's own (not the runtime's pool), so they check the semaphore itself on every runtime,
/// including one on Swift concurrency, whose pool must not block.
enum SemaphoreScenarios {
    static let all: [ConformanceScenario] = [
        ConformanceScenario(.semaphore, "a semaphore with k permits never has more than k holders") {
            try neverMoreThanKHolders($0)
        },
        ConformanceScenario(
            .semaphore,
            "wait(timeout:) times out without a permit and succeeds with one; signal() with no waiter says so"
        ) { try timeoutAndIdleSignal($0) },
        ConformanceScenario(.semaphore, "signal() reports true when it wakes a blocked waiter") {
            try signalReportsWokenWaiter($0)
        },
    ]

    private static func neverMoreThanKHolders<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let permits = 3, threads = 8, rounds = 2_000
        try withRuntime(type) { runtime in
            let semaphore = runtime.makeSemaphore(value: permits)
            let holders = Atomic<Int>(0)
            let mostHolders = Atomic<Int>(0)
            let uses = Atomic<Int>(0)
            let users = (0..<threads).map { _ in
                PThread.spawn {
                    for _ in 0..<rounds {
                        semaphore.wait()
                        let now = holders.wrappingAdd(1, ordering: .relaxed).newValue
                        mostHolders.raiseMax(to: now)
                        spin(50)
                        uses.wrappingAdd(1, ordering: .relaxed)
                        holders.wrappingSubtract(1, ordering: .relaxed)
                        semaphore.signal()
                    }
                }
            }
            users.forEach { $0.join() }
            let most = mostHolders.load(ordering: .relaxed)
            try require(most <= permits, "\(most) threads held a semaphore of \(permits) permits at once")
            try require(
                uses.load(ordering: .relaxed) == threads * rounds,
                "\(uses.load(ordering: .relaxed)) of \(threads * rounds) acquisitions completed")
        }
    }

    private static func timeoutAndIdleSignal<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let semaphore = runtime.makeSemaphore(value: 0)
            let empty = semaphore.wait(timeout: .milliseconds(20))
            try require(empty == .timedOut, "wait(timeout:) on a semaphore with no permit returned \(empty)")
            let none = semaphore.wait(timeout: .zero)
            try require(none == .timedOut, "wait(timeout: 0) on a semaphore with no permit returned \(none)")
            // Both timed-out waiters gave their places back: this signal finds nobody to wake.
            let woke = semaphore.signal()
            try require(!woke, "signal() with nobody waiting reported that it woke a waiter")
            let available = semaphore.wait(timeout: .zero)
            try require(available == .success, "wait(timeout: 0) with a permit available returned \(available)")
            // The value is back at its initial 0, as libdispatch requires before the semaphore is freed.
        }
    }

    private static func signalReportsWokenWaiter<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        // Whether the waiter is already asleep when signal() comes cannot be forced from outside,
        // so give it time, several times, twice as long after each attempt that came too early: a
        // correct semaphore reports a woken waiter once its waiter has run, and one that never
        // does fails. A fixed 20 ms was too short on a loaded 2-core machine (ten attempts, none
        // with the waiter yet asleep).
        let attempts = 10
        var reportedWake = 0
        var pause = 20
        try withRuntime(type) { runtime in
            for _ in 0..<attempts where reportedWake < 3 {
                let semaphore = runtime.makeSemaphore(value: 0)
                let waiter = PThread.spawn { semaphore.wait() }
                sleepBriefly(milliseconds: pause)
                if semaphore.signal() { reportedWake += 1 } else { pause = min(pause * 2, 1_000) }
                waiter.join()
            }
            try require(
                reportedWake > 0,
                "signal() never reported waking a waiter in \(attempts) attempts with a thread blocked in wait()")
        }
    }
}

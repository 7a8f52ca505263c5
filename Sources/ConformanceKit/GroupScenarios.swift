import RuntimeKit
import Synchronization

/// group: wait, wait with timeout, notify, reuse, members adding members.
enum GroupScenarios {
    static let all: [ConformanceScenario] = [
        ConformanceScenario(.group, "wait() returns only after every block of the group") {
            try waitCoversEveryBlock($0)
        },
        ConformanceScenario(.group, "wait(timeout:) times out while a block runs and succeeds after it ends") {
            try waitWithTimeout($0)
        },
        ConformanceScenario(.group, "notify runs exactly once after the last block, round after round on one group") {
            try notifyOncePerRound($0)
        },
        ConformanceScenario(.group, "a block that adds work to its own group keeps wait from returning early") {
            try memberAddsToItsOwnGroup($0)
        },
    ]

    private static func waitCoversEveryBlock<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let blocks = 1_000
        try withRuntime(type) { runtime in
            let ledger = RunLedger(count: blocks)
            let group = runtime.makeGroup()
            for index in 0..<blocks {
                runtime.async(group: group) {
                    spin(1_000)
                    ledger.record(index)
                }
            }
            group.wait()
            try require(ledger.mistakes() == nil, "after wait(): " + (ledger.mistakes() ?? ""))
        }
    }

    private static func waitWithTimeout<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let group = runtime.makeGroup()
            let gate = Gate()
            let finished = Atomic<Bool>(false)
            runtime.async(group: group) {
                gate.pass()
                finished.store(true, ordering: .releasing)
            }
            // The block cannot end before the gate opens, so this timeout is certain.
            let early = group.wait(timeout: .milliseconds(50))
            let now = group.wait(timeout: .zero)
            gate.open()
            try require(early == .timedOut, "wait(timeout:) returned \(early) while a member was still blocked")
            try require(now == .timedOut, "wait(timeout: 0) returned \(now) while a member was still blocked")
            let late = group.wait(timeout: Conformance.patience)
            try require(late == .success, "wait(timeout:) returned \(late) after the member could finish")
            try require(finished.load(ordering: .acquiring), "wait(timeout:) succeeded before the member finished")
            try require(group.wait(timeout: .zero) == .success, "wait(timeout: 0) on an empty group did not succeed")
        }
    }

    private static func notifyOncePerRound<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let rounds = 5, blocksPerRound = 200
        try withRuntime(type) { runtime in
            let group = runtime.makeGroup()
            let notifyQueue = runtime.makeSerialQueue(label: "notify")
            let notified = runtime.makeSemaphore(value: 0)
            let notifications = Unsynchronized(0)  // touched only on notifyQueue
            for round in 0..<rounds {
                let ledger = RunLedger(count: blocksPerRound)
                let gate = Gate()
                for index in 0..<blocksPerRound {
                    runtime.async(group: group) {
                        if index == 0 { gate.pass() }  // hold the group open until notify is set
                        ledger.record(index)
                    }
                }
                let mistakesAtNotify = Unsynchronized<String?>("notify did not run")
                group.notify(on: notifyQueue) {
                    notifications.value += 1
                    mistakesAtNotify.value = ledger.mistakes()
                    notified.signal()
                }
                gate.open()
                try require(
                    notified.wait(timeout: Conformance.patience) == .success, "round \(round): notify never ran")
                let seen = notifyQueue.sync { (mistakesAtNotify.value, notifications.value) }
                try require(seen.0 == nil, "round \(round): notify ran before every block had: \(seen.0 ?? "")")
                try require(seen.1 == round + 1, "round \(round): notify ran \(seen.1) times in \(round + 1) rounds")
            }
            // Notify on an empty group runs at once.
            group.notify(on: notifyQueue) { notified.signal() }
            try require(notified.wait(timeout: Conformance.patience) == .success, "notify on an empty group never ran")
        }
    }

    private static func memberAddsToItsOwnGroup<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let trials = 200
        try withRuntime(type) { runtime in
            for trial in 0..<trials {
                let group = runtime.makeGroup()
                let childFinished = Atomic<Bool>(false)
                runtime.async(group: group) {
                    runtime.async(group: group) {
                        spin(5_000)  // make an early return likely to be seen if it can happen
                        childFinished.store(true, ordering: .releasing)
                    }
                }
                group.wait()
                try require(
                    childFinished.load(ordering: .acquiring),
                    "trial \(trial): wait() returned before a block added by a member of the group finished")
            }
        }
    }
}

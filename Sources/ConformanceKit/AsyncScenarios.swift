import RuntimeKit

/// async: every block runs exactly once.
enum AsyncScenarios {
    static let blocks = 100_000

    static let all: [ConformanceScenario] = [
        ConformanceScenario(.async, "100,000 blocks submitted from outside each run once") {
            try everyBlockRunsOnce($0)
        },
        ConformanceScenario(.async, "blocks submitted from inside blocks each run once") {
            try blocksFromBlocksRunOnce($0)
        },
    ]

    private static func everyBlockRunsOnce<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let ledger = RunLedger(count: Self.blocks)
            let group = runtime.makeGroup()
            for index in 0..<Self.blocks {
                runtime.async(group: group) { ledger.record(index) }
            }
            group.wait()
            try require(ledger.mistakes() == nil, ledger.mistakes() ?? "")
        }
    }

    private static func blocksFromBlocksRunOnce<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let outer = 1_000, inner = 100
        try withRuntime(type) { runtime in
            let outerLedger = RunLedger(count: outer)
            let innerLedger = RunLedger(count: outer * inner)
            let group = runtime.makeGroup()
            for o in 0..<outer {
                runtime.async(group: group) {
                    outerLedger.record(o)
                    // A member adding members to its own group: wait must cover them too.
                    for i in 0..<inner {
                        runtime.async(group: group) { innerLedger.record(o * inner + i) }
                    }
                }
            }
            group.wait()
            try require(outerLedger.mistakes() == nil, "outer blocks: " + (outerLedger.mistakes() ?? ""))
            try require(innerLedger.mistakes() == nil, "inner blocks: " + (innerLedger.mistakes() ?? ""))
        }
    }
}

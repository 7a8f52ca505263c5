import RuntimeKit
import Synchronization

/// One (iterations, stride) combination: empty, one index, and a large count that 7 does not
/// divide (`Conformance.applyIterations`), each with a stride of 1, 7, the whole loop, and the
/// runtime's own choice.
struct ApplyCase: Sendable, CustomStringConvertible {
    let iterations: Int
    let stride: StridePolicy

    /// For 0 and 1 iterations the whole loop's stride is 1, listed once.
    static let all: [ApplyCase] = [0, 1, Conformance.applyIterations].flatMap { n in
        let strides = [StridePolicy.fixed(1), .fixed(7)] + (n > 1 ? [.fixed(n)] : []) + [.automatic]
        return strides.map { ApplyCase(iterations: n, stride: $0) }
    }

    var description: String { "\(iterations) iterations, stride \(stride)" }
}

/// apply: every index once, any stride, nested.
enum ApplyScenarios {
    static let all: [ConformanceScenario] =
        ApplyCase.all.map { loop in
            ConformanceScenario(.apply, "apply runs every index exactly once: \(loop)") { try everyIndexOnce($0, loop) }
        }
        + ApplyCase.all.map { loop in
            ConformanceScenario(
                .apply,
                "the pieces form covers every index once, in non-overlapping ranges of the fixed stride: \(loop)"
            ) { try piecesCoverEveryIndexOnce($0, loop) }
        }
        + [
            ConformanceScenario(.apply, "zero iterations never call the body, in either form, at any stride") {
                try zeroIterationsNeverCallBody($0)
            },
            ConformanceScenario(
                .apply, "a trailing closure that ignores its argument runs once per index, not once per piece"
            ) {
                try ignoredArgumentStillPerIndex($0)
            },
            ConformanceScenario(.apply, "nested apply: 32 × 32 × 32 increments reach 32,768") { try nestedApply($0) },
        ]

    private static func everyIndexOnce<R: ConcurrencyRuntime>(_ type: R.Type, _ loop: ApplyCase) throws {
        try withRuntime(type) { runtime in
            let ledger = RunLedger(count: loop.iterations)
            runtime.apply(iterations: loop.iterations, stride: loop.stride) { ledger.record($0) }
            try require(ledger.mistakes() == nil, ledger.mistakes() ?? "")
        }
    }

    /// Each index is recorded in the ledger (a range that overlaps another, or misses an index,
    /// shows up there); each range is checked against the fixed stride: it starts on a multiple
    /// of it and is that long, or shorter only where the loop ends. Together: exactly the
    /// `ApplyPlan`'s pieces. With `.automatic` the backend chooses, so only non-empty ranges.
    private static func piecesCoverEveryIndexOnce<R: ConcurrencyRuntime>(_ type: R.Type, _ loop: ApplyCase) throws {
        try withRuntime(type) { runtime in
            let ledger = RunLedger(count: loop.iterations)
            let calls = Atomic<Int>(0), misshapen = Atomic<Int>(0)
            // The first misshapen range, for the message: atomics, not a Mutex, which
            // ThreadSanitizer on Linux does not see (tools/tsan-suppressions.txt).
            let firstLower = Atomic<Int>(-1), firstUpper = Atomic<Int>(-1)
            let iterations = loop.iterations
            let stride: Int? = if case .fixed(let n) = loop.stride { n } else { nil }
            runtime.apply(
                iterations: iterations, stride: loop.stride,
                pieces: { range in
                    calls.wrappingAdd(1, ordering: .relaxed)
                    let wellShaped: Bool
                    if let stride {
                        wellShaped =
                            range.lowerBound % stride == 0 && range.count == min(stride, iterations - range.lowerBound)
                    } else {
                        wellShaped = !range.isEmpty
                    }
                    if !wellShaped {
                        misshapen.wrappingAdd(1, ordering: .relaxed)
                        if firstLower.compareExchange(expected: -1, desired: range.lowerBound, ordering: .relaxed)
                            .exchanged
                        {
                            firstUpper.store(range.upperBound, ordering: .relaxed)
                        }
                    }
                    for index in range { ledger.record(index) }
                })
            try require(ledger.mistakes() == nil, ledger.mistakes() ?? "")
            let bad = misshapen.load(ordering: .relaxed)
            try require(
                bad == 0,
                "\(bad) ranges do not fit stride \(loop.stride), "
                    + "the first \(firstLower.load(ordering: .relaxed))..<\(firstUpper.load(ordering: .relaxed))")
            if let stride {
                let expected = (iterations + stride - 1) / stride
                let made = calls.load(ordering: .relaxed)
                try require(
                    made == expected, "the body was called \(made) times, not once for each of the \(expected) pieces")
            }
        }
    }

    private static func zeroIterationsNeverCallBody<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let calls = Atomic<Int>(0)
            for stride in [StridePolicy.fixed(1), .fixed(7), .automatic] {
                runtime.apply(iterations: 0, stride: stride, pieces: { _ in calls.wrappingAdd(1, ordering: .relaxed) })
                runtime.apply(iterations: 0, stride: stride) { _ in calls.wrappingAdd(1, ordering: .relaxed) }
            }
            let made = calls.load(ordering: .relaxed)
            try require(made == 0, "apply over zero iterations called its body \(made) times")
        }
    }

    /// An unlabeled trailing closure could match the `pieces:` parameter as well; the requirement
    /// is `@_disfavoredOverload` so this spelling keeps meaning one call per index.
    private static func ignoredArgumentStillPerIndex<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let calls = Atomic<Int>(0)
            runtime.apply(iterations: 1_000, stride: .fixed(7)) { _ in calls.wrappingAdd(1, ordering: .relaxed) }
            let made = calls.load(ordering: .relaxed)
            try require(
                made == 1_000, "apply(iterations: 1000, stride: 7) { _ in } ran its body \(made) times, not 1,000")
        }
    }

    private static func nestedApply<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let total = Atomic<Int>(0)
            runtime.apply(iterations: 32, stride: .fixed(1)) { _ in
                runtime.apply(iterations: 32, stride: .fixed(1)) { _ in
                    runtime.apply(iterations: 32, stride: .fixed(1)) { _ in
                        total.wrappingAdd(1, ordering: .relaxed)
                    }
                }
            }
            let reached = total.load(ordering: .relaxed)
            try require(reached == 32_768, "nested apply reached \(reached), not 32,768")
        }
    }
}

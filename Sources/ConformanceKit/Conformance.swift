#if canImport(Glibc)
import Glibc
#endif

/// The conformance kit: what every `ConcurrencyRuntime` must do, as scenarios a runtime author
/// runs from their own tests, the same ones this package runs on each of its backends.
///
/// ```swift
/// @Test(arguments: Conformance.scenarios)
/// func conformance(_ scenario: ConformanceScenario) async throws {
///     try await scenario.check(MyPool.self)
/// }
/// ```
public enum Conformance {
    /// Every scenario of every family, including each blocking operation with every worker
    /// blocked or busy.
    public static var scenarios: [ConformanceScenario] {
        ConformanceFamily.allCases.flatMap { scenarios(in: $0) }
    }

    public static func scenarios(in family: ConformanceFamily) -> [ConformanceScenario] {
        switch family {
        case .serialQueue: SerialQueueScenarios.all
        case .async: AsyncScenarios.all
        case .apply: ApplyScenarios.all
        case .functionForms: FunctionFormScenarios.all
        case .group: GroupScenarios.all
        case .semaphore: SemaphoreScenarios.all
        case .blocking: BlockingScenarios.all
        case .shutdown: ShutdownScenarios.all
        case .executors: ExecutorScenarios.all
        }
    }

    /// How long one scenario may take before it counts as a deadlock. Generous: a passing scenario
    /// takes well under a second, but under ThreadSanitizer on a busy 2-core machine it can be 50×
    /// slower, and a hang is what this catches, not slowness. CONFORMANCE_DEADLINE_SECONDS
    /// shortens it, to count hangs over many runs without waiting five minutes for each.
    public static let deadline: Duration = {
        guard let text = environment("CONFORMANCE_DEADLINE_SECONDS") else { return .seconds(300) }
        guard let seconds = Int(text), seconds > 0 else {
            fatalError("CONFORMANCE_DEADLINE_SECONDS is '\(text)', not a whole number of seconds above 0")
        }
        return .seconds(seconds)
    }()

    /// How long a scenario waits for blocks it submitted before it calls them lost: four fifths of
    /// `deadline`, so that its own message, naming what did not run, comes before the deadline's.
    /// Long, because on swift-concurrency the blocks run on the test process's cooperative pool,
    /// which other tests running alongside once held for about 150 s.
    public static var patience: Duration { deadline * 4 / 5 }

    /// How many times each blocking scenario repeats on one runtime: a hand-off that needs a race
    /// to go wrong fails in some rounds only. CONFORMANCE_BLOCKING_ROUNDS raises it for soak-like
    /// runs.
    public static let blockingRounds: Int = {
        guard let text = environment("CONFORMANCE_BLOCKING_ROUNDS") else { return 10 }
        guard let rounds = Int(text), rounds > 0 else {
            fatalError("CONFORMANCE_BLOCKING_ROUNDS is '\(text)', not a whole number above 0")
        }
        return rounds
    }()

    /// The large loop of the apply scenarios: 1,000,003 iterations, a prime, so that stride 7
    /// leaves a short last piece. CONFORMANCE_APPLY_ITERATIONS sets another count above 1 that 7
    /// does not divide: under a sanitizer, where a million closure calls per scenario take most of
    /// the kit's time (its twelve large-loop scenarios were 66 of 106 s under ThreadSanitizer).
    public static let applyIterations: Int = {
        guard let text = environment("CONFORMANCE_APPLY_ITERATIONS") else { return 1_000_003 }
        guard let count = Int(text), count > 1, count % 7 != 0 else {
            fatalError("CONFORMANCE_APPLY_ITERATIONS is '\(text)', not a whole number above 1 that 7 does not divide")
        }
        return count
    }()

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

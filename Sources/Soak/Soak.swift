import Backends
import Harness
import Results
import RuntimeKit

/// How long and how hard a soak runs.
public struct SoakSettings: Sendable {
    /// How long the rounds run.
    public var duration: Duration
    /// The first part of `duration`, after which the reference resident set is taken: pools,
    /// caches and the allocator's arenas have grown to their working size by then.
    public var warmUp: Duration
    public var workers: Int
    public var seed: UInt64
    /// The longest a round waits for any one thing before it reports a hang.
    public var waitTimeout: Duration
    /// Whether rounds call an apply with every worker of the pool busy. That needs a pool nobody
    /// else uses: `bench soak`'s children have one each, but in a test process swift-concurrency
    /// and nio-global share Swift's one cooperative pool with every other test, which may hold
    /// its threads for seconds while the busy blocks wait for them.
    public var busyPoolApply: Bool

    public init(
        duration: Duration, warmUp: Duration, workers: Int = 0, seed: UInt64 = 1,
        waitTimeout: Duration = .seconds(30), busyPoolApply: Bool = true
    ) {
        self.duration = duration
        self.warmUp = warmUp
        self.workers = workers
        self.seed = seed
        self.waitTimeout = waitTimeout
        self.busyPoolApply = busyPoolApply
    }

    /// The warm-up used when none is given: a tenth of the duration, at most 10 seconds.
    public static func defaultWarmUp(for duration: Duration) -> Duration { min(duration / 10, .seconds(10)) }
}

/// A soak: rounds of `SoakRound`'s mix on one runtime until the duration is up, each round
/// checked (every task exactly once, queues in order, syncs and the semaphore lock right), the
/// resident set sampled about once a second. Run it on a thread that may block (never on Swift's
/// cooperative pool: the swift-concurrency backend runs its blocks there).
public enum Soak {
    public static func run<R: ConcurrencyRuntime>(
        _: R.Type, settings: SoakSettings,
        clock: ContinuousClock = ContinuousClock()
    ) -> SoakReport {
        let before = ProcessMemory.now()?.residentBytes
        let runtime = R(workers: settings.workers)
        let ledger = SoakLedger(capacity: SoakRoundSizes.largest.tasks)
        var generator = SeededGenerator(seed: settings.seed)
        let blockingInsideWork = R.reasonUnsupported(.blockingWaitInsideWork) == nil
        let busyPoolApply = settings.busyPoolApply && R.reasonUnsupported(.freeWorkerRunsAnyBlock) == nil
        var report = SoakReport(
            backend: R.id, workers: runtime.workers, seed: settings.seed, seconds: 0, rounds: 0, roundsAfterWarmUp: 0,
            operations: SoakOperations(), residentBefore: before, residentSamples: [])
        let start = clock.now
        var nextSample = start
        var peak = before ?? 0
        func sample(at now: ContinuousClock.Instant) -> Int? {
            guard let resident = ProcessMemory.now()?.residentBytes else { return nil }
            peak = max(peak, resident)
            report.residentSamples.append(.init(seconds: (now - start).inSeconds, bytes: resident))
            return resident
        }
        while true {
            let now = clock.now
            if report.residentAfterWarmUp == nil && now - start >= settings.warmUp {
                report.residentAfterWarmUp = sample(at: now)
                nextSample = now + .seconds(1)
            }
            if now - start >= settings.duration || Interruption.signal != nil { break }
            if now >= nextSample {
                _ = sample(at: now)
                nextSample = now + .seconds(1)
            }
            let round = SoakRound(
                runtime: runtime, ledger: ledger, number: report.rounds,
                sizes: .random(
                    using: &generator, blockingInsideWork: blockingInsideWork, busyPoolApply: busyPoolApply),
                timeout: settings.waitTimeout)
            do {
                report.operations += try round.run()
                report.rounds += 1
                if report.residentAfterWarmUp != nil { report.roundsAfterWarmUp? += 1 }
            } catch {
                report.failure = error.description
                break
            }
        }
        let end = clock.now
        report.seconds = (end - start).inSeconds
        if report.failure == nil {
            report.residentAtEnd = sample(at: end)
        }
        report.residentPeak = peak > 0 ? peak : nil
        // After a failure the runtime is abandoned, not shut down: a round that timed out may have
        // left a block stuck for ever, and a shutdown that waits for it would hang the soak and
        // lose this report (the parent would only see a child past its deadline).
        if report.failure == nil { runtime.shutdown() }
        return report
    }
}

extension Soak {
    /// The soak on `backend`, specialized for its runtime type.
    public static func run(_ backend: Backend, settings: SoakSettings) -> SoakReport {
        // `specialized` rethrows the consumer's errors; this consumer throws none.
        try! backend.specialized(Consumer(settings: settings))
    }

    private struct Consumer: RuntimeTypeConsumer {
        let settings: SoakSettings
        func callAsFunction<R: ConcurrencyRuntime>(_ runtime: R.Type) -> SoakReport {
            Soak.run(runtime, settings: settings)
        }
    }
}

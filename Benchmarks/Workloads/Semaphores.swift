import CaseCatalogue
import Backends
import Harness
import Results
import PThreadPrimitives
import RuntimeKit

/// `semaphore`: counting semaphores in the four uses the guide describes, each on three kinds of
/// semaphore (the `semaphore` parameter):
///
/// | pattern | threads | one operation |
/// | --- | --- | --- |
/// | `uncontended` | the measuring thread | one `wait` + `signal` on a semaphore of value 1 |
/// | `pingpong` | two | one hand-off of a token through two semaphores of value 0 |
/// | `pingpong-one-cpu` | two, on one CPU | the same, both threads pinned to the process's first CPU |
/// | `pingpong-two-cpus` | two, one per CPU | the same, the threads pinned to its first two CPUs |
/// | `pingpong-oversubscribed` | 4 × CPUs | one hand-off of any of 2 × CPUs pairs playing at once (full suite) |
/// | `pool` | four | one acquire + release of one of two resources (the guide's file-descriptor example) |
/// | `producer-consumer` | two | one item through a 16-slot bounded buffer (free and filled slots) |
///
/// | kind | what | backend |
/// | --- | --- | --- |
/// | `backend` | the backend's `makeSemaphore` | every backend |
/// | `posix` | a POSIX `sem_t` (`POSIXSemaphore`) | none |
/// | `mutex-condition` | `MutexSemaphore`, the textbook pthread mutex + condition variable | none |
///
/// Tests the guide's claim that a dispatch semaphore "takes less time to acquire … than a
/// traditional system semaphore" because it calls the kernel only to block. The threads are
/// dedicated pthreads (`ThreadCrew`), never a runtime's pool, so the semaphore is what is measured
/// and every backend can run every pattern (swift-concurrency's pool must not block, and does not).
/// A `backend` case creates its runtime only to make semaphores; its workers stay idle.
///
/// Each pattern verifies itself in `finish()` (counts, order, the permits left) and every wait
/// that another thread must end has a deadline, so a lost signal fails the case with what was
/// lost instead of hanging the child.
public struct Semaphores: Workload {
    /// How long one wait for another thread's signal may take before the case fails.
    public let timeout: Duration

    public init(timeout: Duration = Semaphores.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.semaphore.rawValue
    public let summary =
        "semaphores uncontended, ping-pong (hand-off p50/p99; also 2 × CPUs pairs at once), "
        + "a pool of 2 resources for 4 threads, a bounded buffer; the backend's, POSIX sem_t, mutex + condition"
    public let operation = "one wait + signal, hand-off, acquire + release or item (see the pattern)"
    /// Only `semaphore=backend` sets run on backends (`usesBackend(for:)`).
    public let usesBackend = true

    public typealias Pattern = SemaphorePattern

    public typealias Kind = SemaphoreKind

    static let patternName = ParameterName.pattern.rawValue
    static let kindName = ParameterName.semaphore.rawValue

    /// Ten seconds per wait: a correct hand-off takes microseconds, the members are dedicated
    /// threads that no pool can starve, and twice this (the crew's own stall limit) stays under
    /// the child's default 60-second deadline, so a lost signal is reported as such.
    public static let defaultTimeout: Duration = .seconds(10)

    public func usesBackend(for parameters: [Parameter]) -> Bool {
        parameters.first { $0.name == Self.kindName }?.value == Kind.backend.rawValue
    }

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        // Smoke: one hand-off through the backend's semaphores, which exercises a crew, the
        // deadlines and the histogram on every backend. Quick: every pattern but the
        // oversubscribed and the pinned ping-pongs on every kind (a case per backend and
        // allocator, plus the two kinds without one). Full: everything; the oversubscribed
        // ping-pong is where a semaphore that spins before it sleeps must show it does not rob a
        // busy machine, and the pinned ones give `pingpong`'s two modes apart.
        let fullOnly: Set<Pattern> = [.pingpongOversubscribed, .pingpongOneCPU, .pingpongTwoCPUs]
        let patterns = suite == .full ? Pattern.allCases : Pattern.allCases.filter { !fullOnly.contains($0) }
        let sets: [(Pattern, Kind)] =
            suite == .smoke
            ? [(.pingpong, .backend)]
            : patterns.flatMap { pattern in Kind.allCases.map { (pattern, $0) } }
        return sets.map { [Parameter(Self.patternName, $0.rawValue), Parameter(Self.kindName, $1.rawValue)] }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let pattern: Pattern = try benchmarkCase.choice(Self.patternName)
        let kind: Kind = try benchmarkCase.choice(Self.kindName)
        let sides = try Self.sides(for: pattern)
        // Calibrate the pool's spin before a runtime starts threads that could disturb it.
        let holdRounds = pattern == .pool ? PoolShape.holdTime.spinRounds : nil
        switch kind {
        case .backend:
            guard let backend else {
                throw WorkloadError.badParameter("\(name) with semaphore=backend runs on a backend; none was given")
            }
            struct Make: RuntimeTypeConsumer {
                let pattern: Pattern, sides: [[Int]]?, timeout: Duration, holdRounds: UInt64?
                func callAsFunction<R: ConcurrencyRuntime>(_ runtime: R.Type) -> any MeasuredOperation {
                    Semaphores.operation(pattern, on: runtime, sides: sides, timeout: timeout, holdRounds: holdRounds)
                }
            }
            return try backend.specialized(
                Make(pattern: pattern, sides: sides, timeout: timeout, holdRounds: holdRounds))
        case .posix:
            return Self.operation(
                pattern, supply: SemaphoreSupply { POSIXSemaphore(value: $0) }, sides: sides, timeout: timeout,
                holdRounds: holdRounds)
        case .mutexCondition:
            return Self.operation(
                pattern, supply: SemaphoreSupply { MutexSemaphore(value: $0) }, sides: sides, timeout: timeout,
                holdRounds: holdRounds)
        }
    }

    /// The CPUs side 0 and side 1 of a pinned ping-pong run on, from those this process may use
    /// (`usable`, ascending; `--cpus` narrows them); nil for the patterns the kernel places.
    /// Two CPUs where the process has one is not applicable: the case says so rather than
    /// measuring one CPU under the other's name.
    public static func sides(for pattern: Pattern, usable: [Int] = CPUAffinity.current()) throws(WorkloadError)
        -> [[Int]]?
    {
        switch pattern {
        case .pingpongOneCPU:
            guard let first = usable.first else {
                throw .notApplicable("\(pattern) pins to a CPU of this process, and its CPUs could not be read")
            }
            return [[first], [first]]
        case .pingpongTwoCPUs:
            guard usable.count >= 2 else {
                let only = usable.map(String.init).joined(separator: ", ")
                throw .notApplicable("\(pattern) needs two CPUs; this process may use only CPU \(only)")
            }
            return [[usable[0]], [usable[1]]]
        case .uncontended, .pingpong, .pingpongOversubscribed, .pool, .producerConsumer:
            return nil
        }
    }

    /// `pattern` on semaphores of a new `R`, which the operation shuts down in `finish()`. One
    /// worker: the pool only has to exist for `makeSemaphore`, and idles throughout.
    static func operation<R: ConcurrencyRuntime>(
        _ pattern: Pattern, on runtime: R.Type, sides: [[Int]]?, timeout: Duration, holdRounds: UInt64?
    ) -> any MeasuredOperation {
        let runtime = R(workers: 1)
        return operation(
            pattern, supply: SemaphoreSupply({ runtime.makeSemaphore(value: $0) }, closing: { runtime.shutdown() }),
            sides: sides, timeout: timeout, holdRounds: holdRounds)
    }

    /// The operation of `pattern` on semaphores from `supply`. Generic, so the tests can hand it
    /// semaphores that lose signals or let too many holders in, a short `timeout` so a lost
    /// signal fails a test in a fraction of a second, and a longer `holdRounds` (the pool's spin
    /// while a resource is held; default `SemaphorePool.holdTime`).
    public static func operation<S: CountingSemaphore>(
        _ pattern: Pattern, supply: SemaphoreSupply<S>, sides: [[Int]]? = nil,
        timeout: Duration = Semaphores.defaultTimeout, holdRounds: UInt64? = nil
    ) -> any MeasuredOperation {
        switch pattern {
        case .uncontended: SemaphoreUncontended(supply: supply)
        case .pingpong, .pingpongOneCPU, .pingpongTwoCPUs:
            SemaphorePingPong(supply: supply, sides: sides, timeout: timeout)
        case .pingpongOversubscribed: SemaphorePingPong(supply: supply, pairs: oversubscribedPairs, timeout: timeout)
        case .pool:
            SemaphorePool(supply: supply, timeout: timeout, holdRounds: holdRounds ?? PoolShape.holdTime.spinRounds)
        case .producerConsumer: SemaphoreProducerConsumer(supply: supply, timeout: timeout)
        }
    }

    /// Pairs in `pingpong-oversubscribed`: two per CPU, so four threads want each CPU.
    public static var oversubscribedPairs: Int { 2 * activeProcessorCount }
}

/// Where a semaphore pattern gets its semaphores (`make(value)`), and what it must do once it
/// is done with them (`close`: shut down the runtime that made them; nothing for the kinds
/// without a backend).
public struct SemaphoreSupply<S: CountingSemaphore>: Sendable {
    let make: @Sendable (Int) -> S
    let close: @Sendable () -> Void

    public init(_ make: @escaping @Sendable (Int) -> S, closing close: @escaping @Sendable () -> Void = {}) {
        self.make = make
        self.close = close
    }
}

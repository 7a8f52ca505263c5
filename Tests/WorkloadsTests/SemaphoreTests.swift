import Backends
import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Testing
import Workloads

/// semaphore: every pattern passes on every kind of semaphore (each backend's, POSIX, mutex +
/// condition); a semaphore that loses a signal fails the case by its deadline with what never
/// arrived, one that lets a holder too many in or counts a signal twice fails it at `finish()`.
/// Counts and messages decide, never timings: the short timeout of the fault tests only bounds
/// how long they take, since the lost signal never comes.
@Suite("semaphore: every pattern verifies itself and a lost signal never hangs")
struct SemaphoreTests {
    /// For tests where a signal is lost on purpose: the wait is certain to time out.
    static let lostSignalTimeout: Duration = .milliseconds(200)
    /// For healthy semaphores: a failure here is a hang, which this only bounds. The members are
    /// dedicated threads (no pool can starve them), but a sanitized build on two busy cores is slow.
    static let healthyTimeout: Duration = .seconds(120)
    /// Odd counts end a round with the token on the other side, and rounds of different sizes
    /// share the pool's operations unevenly among its users.
    static let counts = [1, 7, 300]

    static func benchmarkCase(_ pattern: Semaphores.Pattern, _ kind: Semaphores.Kind, backend: Backend?)
        -> BenchmarkCase
    {
        BenchmarkCase(
            workload: "semaphore", backend: backend?.id ?? BenchmarkCase.noBackend,
            parameters: [Parameter("pattern", pattern.rawValue), Parameter("semaphore", kind.rawValue)],
            allocator: .system)
    }

    @Test(
        "every pattern passes on every backend's own semaphore", arguments: workloadBackends,
        Semaphores.Pattern.allCases)
    func passesOnEveryBackend(backend: Backend, pattern: Semaphores.Pattern) async throws {
        guard Self.canRun(pattern) else { return }
        let workload = Semaphores(timeout: Self.healthyTimeout)
        let benchmarkCase = Self.benchmarkCase(pattern, .backend, backend: backend)
        #expect(workload.usesBackend(for: benchmarkCase.parameters))
        let error = try await exercise({ try workload.prepare(benchmarkCase, backend: backend) }, counts: Self.counts)
        #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test(
        "every pattern passes on POSIX and mutex + condition semaphores, which need no backend",
        arguments: [Semaphores.Kind.posix, .mutexCondition], Semaphores.Pattern.allCases)
    func passesWithoutBackend(kind: Semaphores.Kind, pattern: Semaphores.Pattern) async throws {
        guard Self.canRun(pattern) else { return }
        let workload = Semaphores(timeout: Self.healthyTimeout)
        let benchmarkCase = Self.benchmarkCase(pattern, kind, backend: nil)
        #expect(!workload.usesBackend(for: benchmarkCase.parameters))
        let error = try await exercise({ try workload.prepare(benchmarkCase, backend: nil) }, counts: Self.counts)
        #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test("pingpong reports hand-off p50 and p99 in ns; pool reports its most holders, at most 2")
    func ownFigures() async throws {
        let workload = Semaphores(timeout: Self.healthyTimeout)
        let pingpong = try await exerciseSampled(
            { try workload.prepare(Self.benchmarkCase(.pingpong, .mutexCondition, backend: nil), backend: nil) },
            warmUp: 11, sampled: 200)
        #expect(pingpong.error == nil, "\(String(describing: pingpong.error))")
        let p50 = try #require(pingpong.metrics["handoff_ns.p50"]),
            p99 = try #require(pingpong.metrics["handoff_ns.p99"])
        #expect(p50.unit == .nanoseconds && p99.unit == .nanoseconds && p50.value <= p99.value, "\(pingpong.metrics)")

        let pool = try await exerciseSampled(
            { try workload.prepare(Self.benchmarkCase(.pool, .posix, backend: nil), backend: nil) },
            warmUp: 10, sampled: 400)
        #expect(pool.error == nil, "\(String(describing: pool.error))")
        let holders = try #require(pool.metrics["max_holders"])
        #expect(holders.unit == .count && (1...2).contains(holders.value), "\(holders)")
    }

    /// Whether this process has the CPUs `pattern` pins to (two CPUs needs two).
    static func canRun(_ pattern: Semaphores.Pattern) -> Bool {
        pattern != .pingpongTwoCPUs || UsableCPUs.affinityOfCallingThread().count >= 2
    }

    @Test(
        "pinned ping-pong: one CPU puts both sides on the process's first, two CPUs one side on each of its first two")
    func pinnedSides() throws {
        #expect(try Semaphores.sides(for: .pingpongOneCPU, usable: [1, 3]) == [[1], [1]])
        #expect(try Semaphores.sides(for: .pingpongTwoCPUs, usable: [1, 3]) == [[1], [3]])
        #expect(try Semaphores.sides(for: .pingpong, usable: [0, 1]) == nil)
        #expect(try Semaphores.sides(for: .pingpongOversubscribed, usable: [0, 1]) == nil)
        do {
            _ = try Semaphores.sides(for: .pingpongTwoCPUs, usable: [2])
            Issue.record("two CPUs from one should not be applicable")
        } catch {
            guard case .notApplicable(let why) = error else { throw error }
            #expect(why == "pingpong-two-cpus needs two CPUs; this process may use only CPU 2", "\(why)")
        }
    }

    @Test("a pinned ping-pong's sides wait on the CPUs they were pinned to, and verify as the free one does")
    func pinnedSidesRunThere() async throws {
        let usable = UsableCPUs.affinityOfCallingThread()
        for pattern in [Semaphores.Pattern.pingpongOneCPU, .pingpongTwoCPUs] where Self.canRun(pattern) {
            let sides = try #require(try Semaphores.sides(for: pattern, usable: usable))
            let seen = AffinityRecordingSemaphore.Seen()
            let supply = SemaphoreSupply { AffinityRecordingSemaphore(value: $0, seen: seen) }
            let error = try await exercise(
                { Semaphores.operation(pattern, supply: supply, sides: sides, timeout: Self.healthyTimeout) },
                counts: Self.counts)
            #expect(error == nil, "\(pattern): \(error.map(String.init(describing:)) ?? "")")
            #expect(seen.masks == Set(sides), "\(pattern)")
        }
    }

    @Test("a lost signal fails pingpong by its deadline, naming the hand-off, and the operation stays failed")
    func lostSignalFailsPingPong() async throws {
        let supply = SemaphoreSupply { FaultySemaphore(value: $0, fault: .loseSignal(number: 5)) }
        let error = try await exercise(
            { Semaphores.operation(.pingpong, supply: supply, timeout: Self.lostSignalTimeout) }, counts: [40, 40])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("never arrived within") && message.contains("a signal was lost"), "\(message)")
    }

    @Test("a lost signal fails the oversubscribed ping-pong by its deadline, naming the pair and the hand-off")
    func lostSignalFailsOversubscribedPingPong() async throws {
        let supply = SemaphoreSupply { FaultySemaphore(value: $0, fault: .loseSignal(number: 5)) }
        let error = try await exercise(
            { Semaphores.operation(.pingpongOversubscribed, supply: supply, timeout: Self.lostSignalTimeout) },
            counts: [40 * Semaphores.oversubscribedPairs])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(
            message.hasPrefix("pair ") && message.contains("never arrived within")
                && message.contains("a signal was lost"), "\(message)")
    }

    @Test("a lost signal fails producer-consumer by its deadline, naming the item")
    func lostSignalFailsProducerConsumer() async throws {
        let supply = SemaphoreSupply { FaultySemaphore(value: $0, fault: .loseSignal(number: 20)) }
        let error = try await exercise(
            { Semaphores.operation(.producerConsumer, supply: supply, timeout: Self.lostSignalTimeout) }, counts: [100])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("the consumer waited") && message.contains("never signalled"), "\(message)")
    }

    @Test("a semaphore with a permit too many fails pool: more than 2 holders at once and 3 permits at the end")
    func extraPermitFailsPool() async throws {
        // Holders hold for a millisecond, so with three permits three threads are soon inside
        // together (preempted or on a third core); the permit count at the end is exact anyway.
        let holdRounds = BodyCost(nanoseconds: 1_000_000).spinRounds
        let supply = SemaphoreSupply { FaultySemaphore(value: $0, fault: .extraPermit) }
        let error = try await exercise(
            { Semaphores.operation(.pool, supply: supply, timeout: Self.healthyTimeout, holdRounds: holdRounds) },
            counts: [400])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("more than 2 permits left"), "\(message)")
        #expect(message.contains("max holders 3 > 2") || message.contains("max holders 4 > 2"), "\(message)")
    }

    @Test("a signal counted twice fails uncontended: the semaphore ends with two permits")
    func doubleSignalFailsUncontended() async throws {
        let supply = SemaphoreSupply { FaultySemaphore(value: $0, fault: .doubleSignal(number: 3)) }
        let error = try await exercise({ Semaphores.operation(.uncontended, supply: supply) }, counts: [10])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("at least 2 permits left, not 1"), "\(message)")
    }
}

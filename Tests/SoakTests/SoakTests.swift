import Backends
import Foundation
import Harness
import Results
import PThreadPrimitives
import RuntimeKit
@testable import Soak
import Synchronization
import Testing

/// The soak on every backend, briefly: no mistake in any round. Under ThreadSanitizer (CI) this
/// is also a race check of every backend under the mixed load.
@Suite struct SoakOnBackendsTests {
    @Test(arguments: Backends.all.map(\.id))
    func aShortSoakFindsNoMistake(backend id: String) async throws {
        let backend = try #require(Backends.named(id))
        // swift-concurrency and nio-global (which a test process leaves on Swift's pool) share the
        // process's one cooperative pool (2 threads here) with every other test, and a test that
        // blocks its thread (waiting for a child process, say) holds one for a minute or more: in
        // a full parallel run their tasks waited over 30 s. So on them a round waits longer
        // before it calls anything lost, and leaves out the apply with every worker busy, where
        // two soaks at once would each hold half the pool and wait for the rest. `bench soak`
        // runs all of it on them, each backend in a process of its own (CI's soak stage).
        let ownsItsPool = backend.kind != .swiftConcurrency && backend.kind != .nioGlobal
        let settings = SoakSettings(
            duration: .milliseconds(700), warmUp: .milliseconds(200), seed: 7,
            waitTimeout: ownsItsPool ? .seconds(30) : .seconds(300), busyPoolApply: ownsItsPool)
        let report = try await onDedicatedThread { Soak.run(backend, settings: settings) }
        #expect(report.failure == nil, "\(id): \(report.failure ?? "")")
        #expect(report.rounds > 0)
        #expect(report.operations.asyncBlocks > 0)
        #expect(report.operations.applyIterations > 0)
        #expect(report.operations.syncCalls > 0)
        let busyPoolApply = ownsItsPool && backend.unsupported[.freeWorkerRunsAnyBlock] == nil
        #expect((report.operations.busyPoolApplyIterations > 0) == busyPoolApply, "\(id)")
        #expect(report.backend == id)
        // Read from /proc on Linux: at the start, after the warm-up, and at the end.
        #expect(report.residentBefore != nil && report.residentAfterWarmUp != nil && report.residentAtEnd != nil)
        #expect(report.residentSamples.count >= 2)
    }

    @Test func theSameSeedGivesTheSameRounds() {
        var first = SeededGenerator(seed: 42), second = SeededGenerator(seed: 42)
        for _ in 0..<100 {
            let a = SoakRoundSizes.random(using: &first), b = SoakRoundSizes.random(using: &second)
            #expect(a.tasks == b.tasks)
            #expect(a.serialQueues == b.serialQueues)
            #expect(a.applyIterations == b.applyIterations)
            #expect(a.tasks <= SoakRoundSizes.largest.tasks)
        }
    }
}

/// The checker catches a runtime that gets things wrong: each fault stops the soak with a
/// failure that says what went wrong, and the soak does not hang.
@Suite struct SoakCatchesFaultsTests {
    /// Long waits where nothing is lost, so a slow round on a busy machine (or under a sanitizer)
    /// cannot turn the fault looked for into a timeout.
    static let settings = SoakSettings(
        duration: .seconds(5), warmUp: .milliseconds(100), seed: 3, waitTimeout: .seconds(60))

    @Test func anApplyIndexRunTwiceIsReported() async throws {
        let report = try await onDedicatedThread {
            Soak.run(FaultySoakRuntime<RepeatsApplyIndex>.self, settings: Self.settings)
        }
        let failure = try #require(report.failure)
        #expect(failure.contains("ran more than once"), "\(failure)")
        #expect(failure.contains("ran 2 times"), "\(failure)")
    }

    @Test func anApplyIndexLeftOutIsReported() async throws {
        let report = try await onDedicatedThread {
            Soak.run(FaultySoakRuntime<SkipsApplyIndex>.self, settings: Self.settings)
        }
        let failure = try #require(report.failure)
        #expect(failure.contains("never ran"), "\(failure)")
        #expect(failure.contains("ran 0 times"), "\(failure)")
    }

    @Test func aLostBlockIsAReportedTimeoutNotAHang() async throws {
        var settings = Self.settings
        settings.waitTimeout = .seconds(1)
        let report = try await onDedicatedThread { [settings] in
            Soak.run(FaultySoakRuntime<DropsABlock>.self, settings: settings)
        }
        let failure = try #require(report.failure)
        // Whichever wait it was (a semaphore's signals, a group, the notify), it says what it waited for.
        #expect(failure.hasPrefix("round 0: "), "\(failure)")
        #expect(failure.contains("within 1") || failure.contains("after 1"), "\(failure)")
        #expect(failure.contains("tasks had run"), "\(failure)")
        #expect(report.residentAtEnd == nil)
    }

    @Test func aLeakFailsTheMemoryVerdict() async throws {
        // The verdict reads the whole process's resident set, and a test process runs hundreds of
        // tests beside this one: in CI the others gave back 70 MB during the soak, more than it
        // leaked, and the set shrank. So the soak runs in a process of its own (an exit test),
        // which writes its report to standard output. The resident set after the warm-up is read
        // between rounds. On a slowed VM one round once took the whole 2 s, so it was read after
        // all the leaking and nothing could grow; such a soak's memory is not judged now, and a
        // longer one gives the rounds room.
        let child = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var duration = Duration.seconds(2)
            var report: SoakReport
            repeat {
                let settings = SoakSettings(duration: duration, warmUp: .milliseconds(300), seed: 3)
                report = try await onDedicatedThread {
                    Soak.run(FaultySoakRuntime<LeaksPerBlock>.self, settings: settings)
                }
                duration *= 2
            } while report.failure == nil && report.roundsAfterWarmUp == 0 && duration <= .seconds(16)
            FileHandle.standardOutput.write(try JSONEncoder().encode(report))
        }
        let report = try JSONDecoder().decode(SoakReport.self, from: Data(child.standardOutputContent))
        #expect(report.failure == nil)
        let after = report.roundsAfterWarmUp ?? 0
        try #require(after > 0, "\(report.rounds) rounds in \(report.seconds) s, none after the warm-up")
        let growth = try #require(report.residentGrowth)
        // 16 KB per block of tens of thousands of blocks a second.
        #expect(growth > 4 * 1_048_576, "grew \(growth) bytes")
        let verdict = SoakVerdict(report: report, maximumGrowth: 4 * 1_048_576)
        #expect(!verdict.passed)
        #expect(verdict.reason?.contains("the resident set grew by") == true, "\(verdict.reason ?? "")")
        #expect(SoakVerdict(report: report, maximumGrowth: growth).passed)
    }

    @Test("memory is not judged when no round began after the warm-up's reading")
    func noRoundAfterTheWarmUp() {
        var report = SoakReport(
            backend: "fifo-dispatch", workers: 2, seed: 3, seconds: 2.2, rounds: 1, roundsAfterWarmUp: 0,
            operations: SoakOperations(), residentBefore: 1 << 20, residentAfterWarmUp: 300 << 20,
            residentAtEnd: 300 << 20, residentSamples: [])
        #expect(report.residentGrowth == nil)
        let verdict = SoakVerdict(report: report, maximumGrowth: 4 << 20)
        #expect(verdict.passed)
        #expect(verdict.reason?.contains("no round began after the warm-up (1 rounds in 2.2 s)") == true)
        report.roundsAfterWarmUp = 1
        report.residentAtEnd = 310 << 20
        #expect(report.residentGrowth == 10 << 20)
        #expect(!SoakVerdict(report: report, maximumGrowth: 4 << 20).passed)
        // A report written before the count was kept is judged as it was then.
        report.roundsAfterWarmUp = nil
        #expect(report.residentGrowth == 10 << 20)
    }

    @Test func theLedgerCountsEachKindOfMistake() {
        let ledger = SoakLedger(capacity: 10)
        ledger.beginRound(tasks: 4)
        for id in [0, 1, 1, 3, 7, -1] { ledger.record(id) }
        let mistakes = ledger.mistakes() ?? ""
        #expect(mistakes.contains("1 of 4 tasks never ran"), "\(mistakes)")  // 2
        #expect(mistakes.contains("2 ran more than once"), "\(mistakes)")  // 1 twice, 7 outside the round
        #expect(mistakes.contains("1 runs of an id outside the round"), "\(mistakes)")  // -1
        ledger.beginRound(tasks: 3)
        for id in 0..<3 { ledger.record(id) }
        #expect(ledger.mistakes() == nil)
        #expect(ledger.ran() == 3)
    }
}

// MARK: - A runtime with one deliberate fault

protocol SoakFault: SendableMetatype { static var fault: FaultySoakRuntimeFault { get } }

enum FaultySoakRuntimeFault {
    /// Every apply runs index 0 twice.
    case repeatApplyIndex
    /// Every apply leaves index 0 out.
    case skipApplyIndex
    /// The 6th block submitted with `async` (plain or into a group) never runs.
    case dropAsync
    /// Every `async` block allocates 16 KB and touches it; all of it is freed only at shutdown.
    case leak
}

enum RepeatsApplyIndex: SoakFault { static var fault: FaultySoakRuntimeFault { .repeatApplyIndex } }
enum SkipsApplyIndex: SoakFault { static var fault: FaultySoakRuntimeFault { .skipApplyIndex } }
enum DropsABlock: SoakFault { static var fault: FaultySoakRuntimeFault { .dropAsync } }
enum LeaksPerBlock: SoakFault { static var fault: FaultySoakRuntimeFault { .leak } }

/// pthread-mutex's pool with one fault. Serial queues and apply's pieces go straight to the pool,
/// so a dropped `async` is always one of the round's own blocks, each of which has a timed wait.
final class FaultySoakRuntime<F: SoakFault>: PoolBackedRuntime, @unchecked Sendable {
    static var id: String { "faulty" }
    static var summary: String { "test-only: pthread-mutex's pool with one deliberate fault" }

    private let pool: any ConcurrencyRuntime
    private let submissions = Atomic<Int>(0)
    /// The leak fault's allocations, freed at shutdown: leaked while the soak measures, but not at
    /// exit, where LeakSanitizer (the CI's AddressSanitizer run) would report them. Behind a
    /// pthread mutex, which ThreadSanitizer sees (it does not see `Synchronization.Mutex`).
    private let leakLock = PThreadMutex()
    private nonisolated(unsafe) var leaked: [UInt] = []

    init(workers: Int) { pool = Backends.named("pthread-mutex")!.runtime.init(workers: 2) }

    var workers: Int { pool.workers }

    func async(_ work: @escaping @Sendable () -> Void) {
        let number = submissions.wrappingAdd(1, ordering: .relaxed).oldValue
        switch F.fault {
        case .dropAsync where number == 5:
            return
        case .leak:
            pool.async { [self] in
                let bytes = UnsafeMutableRawPointer.allocate(byteCount: 16_384, alignment: 64)
                bytes.initializeMemory(as: UInt8.self, repeating: 1, count: 16_384)
                let address = UInt(bitPattern: bytes)
                leakLock.withLock { leaked.append(address) }
                work()
            }
        default:
            pool.async(work)
        }
    }

    func makeSerialQueue(label: String) -> Strand {
        let pool = self.pool
        return Strand(label: label) { drain in pool.async(drain) }
    }

    @_disfavoredOverload
    func apply(iterations: Int, stride: StridePolicy, pieces body: (Range<Int>) -> Void) {
        let pool = self.pool
        let submit: (@escaping @Sendable () -> Void) -> Void = { pool.async($0) }
        ParallelLoop.run(iterations: iterations, stride: stride, workers: workers, submit: submit) { range in
            switch F.fault {
            case .skipApplyIndex where range.contains(0): if range.count > 1 { body(1..<range.upperBound) }
            case .repeatApplyIndex where range.contains(0): body(0..<1); body(range)
            default: body(range)
            }
        }
    }

    func shutdown() {
        pool.shutdown()
        for address in leakLock.withLock({ leaked }) { UnsafeMutableRawPointer(bitPattern: address)!.deallocate() }
    }
}

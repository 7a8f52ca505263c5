import Backends
import Fidelity
import Harness
import Results
import PThreadPrimitives
import Testing
@testable import Workloads

/// direct: every reference of every suite passes its own check on every backend, and every one
/// has a suite case to stand beside (`FidelityPairs`) that the suite's own workloads can prepare.
@Suite("direct: the fidelity references check themselves and each has its suite case")
struct DirectTests {
    static func cases(_ suite: Suite) -> [(BenchmarkCase, Backend?)] {
        let direct = Direct()
        return direct.parameterSets(for: suite).flatMap { parameters -> [(BenchmarkCase, Backend?)] in
            guard direct.usesBackend(for: parameters) else {
                return [
                    (
                        BenchmarkCase(
                            workload: direct.name, backend: BenchmarkCase.noBackend, parameters: parameters,
                            allocator: .system), nil
                    )
                ]
            }
            return workloadBackends.map {
                (BenchmarkCase(workload: direct.name, backend: $0.id, parameters: parameters, allocator: .system), $0)
            }
        }
    }

    @Test("every reference passes its own check, on every backend")
    func everyReferencePasses() async throws {
        for (benchmarkCase, backend) in Self.cases(.full) {
            // Small counts: a 1 µs body's apply of 10,000 iterations is 10 ms per loop.
            let error = try await exercise({ try Direct().prepare(benchmarkCase, backend: backend) }, counts: [1, 3])
            #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
        }
    }

    @Test("the fan-out reference checks every round's wait: one that returns before its round has run fails it")
    func earlyWaitFailsFanOutReference() async throws {
        // Rounds of 4; submission 3 runs only when the next round starts, so the first round's
        // wait returns with 3 counted (a later round's may too: the late one is in no group).
        let error = try await exercise(
            {
                try ConcreteDirectOperation(
                    .groupFanOut, runtime: FaultyRuntime(fault: .lateGroupMember(submission: 3), workers: 2), loop: nil)
            }, counts: [20])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.hasSuffix(" group waits returned before their round's tasks had all run"), "\(message)")
    }

    @Test("every reference of every suite names a suite case of a known workload, with parameters it accepts")
    func everyReferenceHasItsSuiteCase() throws {
        for suite in Suite.allCases {
            for (benchmarkCase, _) in Self.cases(suite) {
                let pair = try #require(FidelityPairs.pair(for: benchmarkCase), "\(benchmarkCase.id) has no suite case")
                let workload = try #require(
                    Workloads.named(pair.suiteCase.workload), "\(pair.suiteCase.id): unknown workload")
                #expect(
                    workload.usesBackend(for: pair.suiteCase.parameters)
                        == (pair.suiteCase.backend != BenchmarkCase.noBackend),
                    "\(pair.suiteCase.id): backend does not match the workload's")
                #expect(pair.directCase == benchmarkCase && pair.suiteCase.allocator == benchmarkCase.allocator)
            }
        }
    }

    @Test("an unknown operation is a bad parameter naming the valid ones")
    func unknownOperation() throws {
        let benchmarkCase = BenchmarkCase(
            workload: "direct", backend: "libdispatch-c", parameters: [Parameter("operation", "teleport")],
            allocator: .system)
        do {
            _ = try Direct().prepare(benchmarkCase, backend: Backends.named("libdispatch-c"))
            Issue.record("prepare accepted operation=teleport")
        } catch let error as WorkloadError {
            guard case .badParameter(let message) = error else { Issue.record("\(error)"); return }
            #expect(
                message.contains("'teleport'") && message.contains("sync") && message.contains("apply"), "\(message)")
        }
    }
}

@Suite("piece tally: a loop's count and index sum, per thread, without shared cache lines")
struct PieceTallyTests {
    @Test("pieces recorded from many threads add up to the loop, and a wrong loop does not")
    func totalsFromManyThreads() async throws {
        // More threads than slots: the last ones take the shared, atomic slot.
        let threads = 300, iterations = 1_000
        let tally = PieceTally(iterations: iterations)
        let recorder = tally.recorder
        let error = try await onDedicatedThread { () -> String? in
            let spawned = (0..<threads).map { thread in
                PThread.spawn {
                    // Thread t records the pieces t, t + threads, ... of stride 1 across the loop.
                    for index in Swift.stride(from: thread, to: iterations, by: threads) {
                        recorder.record(index..<index + 1)
                    }
                }
            }
            for thread in spawned { thread.join() }
            do { try tally.completed(1, loop: "test loop") } catch { return "\(error)" }
            return nil
        }
        #expect(error == nil, "\(error ?? "")")
        recorder.record(5..<6)  // one index twice
        #expect(throws: WorkloadError.self) { try tally.completed(0, loop: "test loop") }
    }

    @Test(
        """
        slots given back by exiting threads and claimed again by new ones keep every piece: \
        waves of short-lived threads
        """)
    func slotsRecycled() async throws {
        // 200 waves of 8 threads, each recording 1,000 pieces of one index: 1,600,000 pieces,
        // every slot number claimed again 200 times by a thread that never saw the last owner.
        let waves = 200, threadsPerWave = 8, piecesPerThread = 1_000
        let iterations = threadsPerWave * piecesPerThread
        let tally = PieceTally(iterations: iterations)
        let recorder = tally.recorder
        let error = try await onDedicatedThread { () -> String? in
            for _ in 0..<waves {
                let wave = (0..<threadsPerWave).map { thread in
                    PThread.spawn {
                        for piece in 0..<piecesPerThread {
                            let index = thread * piecesPerThread + piece
                            recorder.record(index..<index + 1)
                        }
                    }
                }
                for thread in wave { thread.join() }
            }
            do { try tally.completed(waves, loop: "waves") } catch { return "\(error)" }
            return nil
        }
        #expect(error == nil, "\(error ?? "")")
    }

    @Test("one index skipped and another repeated keeps the count but not the sum")
    func swappedIndexChangesTheSum() {
        let tally = PieceTally(iterations: 10)
        let recorder = tally.recorder
        recorder.record(0..<3)
        recorder.record(4..<10)
        recorder.record(7..<8)  // 3 left out, 7 twice: ten indices
        do {
            try tally.completed(1, loop: "test loop")
            Issue.record("a swapped index passed the tally")
        } catch {
            #expect("\(error)".contains("10 indices ran (expected 10), index sum 49 (expected 45)"), "\(error)")
        }
    }
}

import Backends
import CBodyCost
import Harness
import Results
import RuntimeKit
import Testing
import Workloads

/// apply-stride and apply-serial: the operation passes its own check on every backend, and the
/// check catches an apply that skips or repeats an index. Counts decide, never timings.
@Suite("apply-stride and apply-serial: every index once per apply")
struct ApplyStrideTests {
    static let strides: [StrideChoice] = [.fixed(1), .fixed(7), .automatic, .perWorker]

    @Test("apply-stride passes its own check on every backend and stride", arguments: workloadBackends, strides)
    func passesOnEveryBackend(backend: Backend, stride: StrideChoice) async throws {
        let error = try await exercise(
            {
                ApplyStride.operation(
                    on: backend.runtime.init(workers: 0), spinRounds: rb_spin_rounds(rounds: 1.5), stride: stride,
                    iterations: 1_000)
            }, counts: [1, 3])
        #expect(error == nil, "\(backend.id), stride \(stride): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test(
        """
        apply-stride reports the stride it really used: 7 for stride 7, \
        and the backend's own choice for the automatic stride
        """,
        arguments: workloadBackends)
    func reportsTheStrideUsed(backend: Backend) async throws {
        for (stride, expected) in [(StrideChoice.fixed(7), 1_000.0 / 143), (.automatic, nil)] {
            let result = try await exerciseSampled(
                {
                    ApplyStride.operation(
                        on: backend.runtime.init(workers: 0), spinRounds: rb_spin_rounds(rounds: 1.5), stride: stride,
                        iterations: 1_000)
                }, warmUp: 2, sampled: 3)
            #expect(result.error == nil, "\(backend.id), stride \(stride): \(String(describing: result.error))")
            let used = try #require(
                result.metrics["iterations_per_piece"], "\(backend.id), stride \(stride): \(result.metrics)")
            #expect(used.unit == .iterations)
            // 1,000 iterations at stride 7: 142 pieces of 7 and one of 6, a mean of 1000/143.
            if let expected { #expect(abs(used.value - expected) < 1e-9, "\(backend.id): \(used.value)") }
            #expect((1...1_000).contains(used.value), "\(backend.id), stride \(stride): \(used.value)")
        }
    }

    @Test(
        "apply-stride's smoke case, prepared as the child prepares it, passes on every backend",
        arguments: workloadBackends)
    func smokeCaseThroughPrepare(backend: Backend) async throws {
        let workload = ApplyStride()
        let parameters = try #require(workload.parameterSets(for: .smoke).first)
        let benchmarkCase = BenchmarkCase(
            workload: workload.name, backend: backend.id, parameters: parameters, allocator: .system)
        let error = try await exercise({ try workload.prepare(benchmarkCase, backend: backend) }, counts: [1, 2])
        #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test(
        "an apply that leaves an index out fails the timed runs' piece tally",
        arguments: [StrideChoice.fixed(1), .automatic])
    func skippedIndexIsCaught(stride: StrideChoice) async throws {
        let error = try await exercise(
            {
                ApplyStride.operation(
                    on: FaultyRuntime(fault: .skip(index: 7)), spinRounds: rb_spin_rounds(rounds: 0), stride: stride,
                    iterations: 100)
            }, counts: [1, 2])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("99 indices ran (expected 100)"), "\(message)")
    }

    @Test(
        "an apply that runs an index twice fails the timed runs' piece tally",
        arguments: [StrideChoice.fixed(1), .automatic])
    func repeatedIndexIsCaught(stride: StrideChoice) async throws {
        let error = try await exercise(
            {
                ApplyStride.operation(
                    on: FaultyRuntime(fault: .repeatIndex(42)), spinRounds: rb_spin_rounds(rounds: 0), stride: stride,
                    iterations: 100)
            }, counts: [1, 2])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("101 indices ran (expected 100)"), "\(message)")
    }

    @Test(
        """
        mistakes that cancel in the piece tally's count and sum are caught by finish()'s exact loop, naming the indices
        """,
        arguments: [StrideChoice.fixed(1), .automatic])
    func cancellingMistakesAreCaught(stride: StrideChoice) async throws {
        let error = try await exercise(
            {
                ApplyStride.operation(
                    on: FaultyRuntime(fault: .cancellingMistakes(around: 50)), spinRounds: rb_spin_rounds(rounds: 0),
                    stride: stride,
                    iterations: 100)
            }, counts: [1, 2])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.contains("3 of 100 indices"), "\(message)")
        #expect(message.contains("index 49 ran 0 times"), "\(message)")
        #expect(message.contains("index 50 ran 3 times"), "\(message)")
    }

    @Test("an index outside the loop is counted apart and reported, not written out of bounds")
    func strayIndexIsCaught() throws {
        let ledger = IterationLedger(iterations: 4)
        let tally = ledger.tally
        for index in [0, 1, 2, 3, -1, 4, Int.max] { tally.record(index) }
        ledger.completed(1)
        #expect(throws: WorkloadError.self) { try ledger.verify(loop: "test loop") }
        do {
            try ledger.verify(loop: "test loop")
        } catch {
            let message = try #require(verificationMessage(error))
            #expect(message.contains("3 times with an index outside 0..<4"), "\(message)")
            #expect(!message.contains("did not run exactly once"), "in-range indices were all right: \(message)")
        }
    }

    @Test("apply-serial passes its own check")
    func serialLoopPasses() async throws {
        let workload = ApplySerial()
        let benchmarkCase = BenchmarkCase(
            workload: workload.name, backend: BenchmarkCase.noBackend,
            parameters: [Parameter("body", "10ns"), Parameter("iterations", "500")], allocator: .system)
        let error = try await exercise({ try workload.prepare(benchmarkCase, backend: nil) }, counts: [1, 4])
        #expect(error == nil, "\(error.map(String.init(describing:)) ?? "")")
    }

    @Test("every apply-stride body and iteration count has its apply-serial baseline, in every suite")
    func everyStrideCaseHasASerialBaseline() {
        for suite in Suite.allCases {
            let serial = Set(ApplySerial().parameterSets(for: suite))
            for parameters in ApplyStride().parameterSets(for: suite) {
                let baseline = parameters.filter { $0.name != "stride" }
                #expect(serial.contains(baseline), "\(suite): no apply-serial case \(baseline)")
            }
        }
    }

    @Test("stride parameters: numbers, auto and per-worker are read; anything else is a bad parameter")
    func strideParsing() throws {
        #expect(try StrideChoice(parsing: "1") == .fixed(1))
        #expect(try StrideChoice(parsing: "4096") == .fixed(4096))
        #expect(try StrideChoice(parsing: "auto") == .automatic)
        #expect(try StrideChoice(parsing: "per-worker") == .perWorker)
        #expect(StrideChoice.perWorker.policy(iterations: 1_001, workers: 2) == .fixed(501))
        for bad in ["0", "-1", "+4", "x", "", "1.5"] {
            #expect(throws: WorkloadError.self, "'\(bad)'") { try StrideChoice(parsing: bad) }
        }
    }
}

import Backends
import CBodyCost
import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Testing
import Workloads

/// The parameters of apply-stride, apply-serial, spawn, thread-spawn, semaphore and group: read in one place, bad
/// ones refused with a reason, every declared set accepted, the quick suite kept small.
@Suite("workload parameters: body costs, suites, bad values")
struct ParameterTests {
    @Test("body costs read and write 0ns, 10ns, 100ns, 1us, 10us, and read back what they write")
    func bodyCostRoundTrip() throws {
        #expect(BodyCost.all.map(\.description) == ["0ns", "10ns", "100ns", "1us", "10us"])
        for cost in BodyCost.all + [BodyCost(nanoseconds: 1_500), BodyCost(nanoseconds: 7)] {
            #expect(try BodyCost(parsing: cost.description) == cost)
        }
        #expect(try BodyCost(parsing: "1000ns").description == "1us")
        #expect(try BodyCost(parsing: "0us") == BodyCost(nanoseconds: 0))
    }

    @Test("a malformed body cost is a bad parameter that says what is valid")
    func badBodyCost() {
        for bad in ["10", "ns", "-1ns", "1ms", "1.5us", "+5ns", "10 ns", "", "٣ns", "99999999999999999999us"] {
            do {
                _ = try BodyCost(parsing: bad)
                Issue.record("'\(bad)' was accepted")
            } catch {
                guard case .badParameter(let why) = error else { Issue.record("'\(bad)': \(error)"); continue }
                #expect(why.contains("<n>ns or <n>us") && why.contains("'\(bad)'"), "\(why)")
            }
        }
        let missing = BenchmarkCase(
            workload: "apply-serial", backend: BenchmarkCase.noBackend,
            parameters: [Parameter("iterations", "10")], allocator: .system)
        #expect(throws: WorkloadError.self) { try BodyCost(parameterOf: missing) }
    }

    @Test("the spin calibration gives a positive cost per round; an empty body needs no rounds")
    func spinCalibration() {
        let perRound = SpinCalibration.nanosecondsPerRound
        #expect(perRound > 0 && perRound.isFinite, "\(perRound)")
        #expect(BodyCost(nanoseconds: 0).spinRounds == 0)
        let rounds = BodyCost.all.map(\.spinRounds)
        #expect(rounds == rounds.sorted(), "more time must never mean fewer rounds: \(rounds)")
        let perIndex = BodyCost.all.map(\.spinRoundsPerIndex.rounds)
        #expect(perIndex == perIndex.sorted(), "more time must never mean fewer rounds: \(perIndex)")
        #expect(BodyCost.all.allSatisfy { abs($0.spinRoundsPerIndex.rounds - Double($0.spinRounds)) <= 0.5 })
    }

    @Test("a loop's body spins a fraction of a round by turns: its indices' rounds add up to the exact amount")
    func fractionalRounds() {
        let spin = rb_spin_rounds(rounds: 2.618)
        #expect(spin.whole == 2)
        #expect(abs(spin.rounds - 2.618) < 1e-9, "\(spin.rounds)")
        // Each index spins 2 or 3 rounds, and every prefix within one round of its exact share.
        var total: UInt64 = 0
        for index in UInt64(0)..<10_000 {
            let rounds = rb_spin_rounds_through(spin, index + 1) - rb_spin_rounds_through(spin, index)
            #expect(rounds == 2 || rounds == 3, "index \(index) spins \(rounds)")
            total += rounds
            #expect(abs(Double(total) - 2.618 * Double(index + 1)) < 1, "after index \(index): \(total)")
        }
        #expect(total == rb_spin_rounds_through(spin, 10_000))
        // The piece function's stepping, started at any index (where a piece starts), spins each
        // index exactly that share, so a loop spins the same rounds however it is cut.
        for start: UInt64 in [0, 1, 4_097] {
            var phase = rb_spin_rounds_phase(spin, start)
            for index in start..<start + 600 {
                let expected = rb_spin_rounds_through(spin, index + 1) - rb_spin_rounds_through(spin, index)
                #expect(rb_spin_rounds_step(spin, &phase) == expected, "index \(index), started at \(start)")
            }
        }
        // Whole numbers stay whole, and a fraction that rounds to a whole round carries.
        #expect(rb_spin_rounds(rounds: 3).fraction == 0 && rb_spin_rounds(rounds: 3).whole == 3)
        let carried = rb_spin_rounds(rounds: 2.9999999999999)
        #expect(carried.whole == 3 && carried.fraction == 0)
        // 2^40 indices at a fraction just under one round: the product needs more than 64 bits.
        #expect(rb_spin_rounds_through(rb_spin_rounds(whole: 0, fraction: .max), 1 << 40) == (1 << 40) - 256)
    }

    @Test("a run's calibration spins for its whole window and keeps the fastest probe")
    func calibrationWindow() {
        let clock = ContinuousClock()
        let start = clock.now
        let perRound = SpinCalibration.measure(over: .milliseconds(30))
        // The window is a lower bound on the time spent (the loop checks it after each probe); how
        // much longer a busy machine makes it is not this test's business.
        #expect(clock.now - start >= .milliseconds(30))
        #expect(perRound > 0 && perRound.isFinite, "\(perRound)")
        // A window shorter than one probe still takes one.
        #expect(SpinCalibration.measure(over: .zero) > 0)
    }

    @Test("a run's spin calibration, once supplied, decides every body's rounds; a bad one is refused")
    func suppliedCalibration() throws {
        // The process's own measurement, supplied back: other tests in this process see the same
        // kind of value they would have measured.
        let measured = SpinCalibration.measure()
        try WorkloadCalibration.use([SpinCalibration.name: measured, "from-a-newer-parent": 1])
        #expect(SpinCalibration.nanosecondsPerRound == measured)
        #expect(BodyCost(nanoseconds: 1_000).spinRounds == UInt64((1_000 / measured).rounded()))
        #expect(abs(BodyCost(nanoseconds: 10).spinRoundsPerIndex.rounds - 10 / measured) < 1e-6)
        for bad in [0, -1, Double.nan, .infinity] {
            #expect(throws: CalibrationError.self) { try WorkloadCalibration.use([SpinCalibration.name: bad]) }
        }
        #expect(SpinCalibration.nanosecondsPerRound == measured, "a refused value must change nothing")
    }

    @Test("the calibration travels to the child inside the request")
    func calibrationInTheRequest() throws {
        let benchmarkCase = BenchmarkCase(
            workload: "apply-stride", backend: "work-stealing", parameters: [], allocator: .system)
        let request = ChildRequest(
            benchmarkCase: benchmarkCase, repetition: 0, sampler: Sampler(),
            calibration: [SpinCalibration.name: 7.5])
        #expect(try ChildRequest.decode(request.encoded()).calibration == [SpinCalibration.name: 7.5])
    }

    static let ownWorkloads: [any Workload] = [
        ApplyStride(), ApplySerial(), Spawn(), ThreadSpawn(), QueueVsLock(), Semaphores(), Groups(), Footprint(),
    ]

    @Test("every parameter set of every suite is accepted by prepare (pthread-mutex)", arguments: Suite.allCases)
    func everyDeclaredSetIsAccepted(suite: Suite) async throws {
        let backend = try #require(Backends.named("pthread-mutex"))
        let cases = Self.ownWorkloads.flatMap { workload in
            workload.parameterSets(for: suite).map {
                BenchmarkCase(
                    workload: workload.name,
                    backend: workload.usesBackend(for: $0) ? backend.id : BenchmarkCase.noBackend,
                    parameters: $0, allocator: .system)
            }
        }
        let refused = try await onDedicatedThread { () -> [String] in
            var refused: [String] = []
            for benchmarkCase in cases {
                let workload = Workloads.named(benchmarkCase.workload)!
                do {
                    // No run: prepare builds the runtime (and the ledger, the ring's queues), finish
                    // checks the nothing that ran and shuts the runtime down.
                    let operation = try workload.prepare(
                        benchmarkCase, backend: workload.usesBackend(for: benchmarkCase.parameters) ? backend : nil)
                    try operation.finish()
                } catch {
                    refused.append("\(benchmarkCase.id): \(error)")
                }
            }
            return refused
        }
        #expect(refused.isEmpty, "\(refused)")
    }

    @Test(
        """
        the quick suite stays small: the system allocator alone, at most 14 apply-stride sets, 4 apply-serial, \
        4 spawn, 1 thread-spawn, 28 semaphore cases, 3 group sets
        """)
    func quickSuiteBudget() {
        // Every set is a case per backend, each about a second over 4 processes; the whole quick
        // suite of every family must stay within about 4 minutes. The allocator would double it.
        #expect(Suite.quick.defaultAllocators == [.system])
        // Stride 1 and automatic for the empty and 1 µs bodies; 4 strides and automatic for 10
        // and 100 ns, enough to name the best stride of a small body.
        #expect(ApplyStride().parameterSets(for: .quick).count <= 14)
        #expect(ApplySerial().parameterSets(for: .quick).count <= 4)
        #expect(Spawn().parameterSets(for: .quick).count <= 4)
        #expect(ThreadSpawn().parameterSets(for: .quick).count == 1)
        // 7 guards in 3 settings (1 thread, 2 threads, 2 per CPU): 4 cases under "none" and 3
        // per backend, in each setting.
        #expect(QueueVsLock().parameterSets(for: .quick).count <= 21)
        // semaphore: 4 patterns × 3 kinds, but only the backend kind runs on every backend, so
        // 7 cases per pattern and allocator, not 15.
        let semaphore = Semaphores()
        let semaphoreSets = semaphore.parameterSets(for: .quick)
        #expect(semaphoreSets.count <= 12)
        let semaphoreCases = semaphoreSets.reduce(0) { $0 + (semaphore.usesBackend(for: $1) ? Backends.all.count : 1) }
        #expect(semaphoreCases <= 4 * (Backends.all.count + 2), "\(semaphoreCases) semaphore cases per allocator")
        #expect(Groups().parameterSets(for: .quick).count <= 3)
        for workload in Self.ownWorkloads {
            #expect(workload.parameterSets(for: .smoke).count <= 1, "\(workload.name): smoke is at most one small set")
        }
        // Only the older families and one semaphore set run in smoke; group has none.
        #expect(Groups().parameterSets(for: .smoke).isEmpty)
        #expect(semaphore.parameterSets(for: .smoke).count == 1)
    }

    @Test("bad apply-stride, spawn, semaphore, group and iteration parameters are refused with a reason")
    func badParameters() {
        let backend = Backends.named("pthread-mutex")!
        let refusals: [(workload: any Workload, parameters: [Parameter])] = [
            (ApplyStride(), [Parameter("body", "0ns"), Parameter("stride", "0"), Parameter("iterations", "10")]),
            (ApplyStride(), [Parameter("body", "0ns"), Parameter("stride", "auto"), Parameter("iterations", "0")]),
            (ApplyStride(), [Parameter("body", "0ns"), Parameter("stride", "auto")]),
            (ApplyStride(), [Parameter("body", "fast"), Parameter("stride", "auto"), Parameter("iterations", "10")]),
            (ApplySerial(), [Parameter("body", "1us"), Parameter("iterations", "many")]),
            (Spawn(), [Parameter("pattern", "everywhere")]),
            (Spawn(), []),
            (Semaphores(), [Parameter("pattern", "ring"), Parameter("semaphore", "posix")]),
            (Semaphores(), [Parameter("pattern", "pool"), Parameter("semaphore", "futex")]),
            (Semaphores(), [Parameter("pattern", "pool")]),
            (Semaphores(), []),
            (Groups(), [Parameter("pattern", "tree")]),
            (Groups(), []),
        ]
        for (workload, parameters) in refusals {
            let benchmarkCase = BenchmarkCase(
                workload: workload.name, backend: workload.usesBackend ? backend.id : BenchmarkCase.noBackend,
                parameters: parameters, allocator: .system)
            do {
                _ = try workload.prepare(benchmarkCase, backend: workload.usesBackend ? backend : nil)
                Issue.record("\(benchmarkCase.id) was accepted")
            } catch let error as WorkloadError {
                guard case .badParameter(let why) = error else {
                    Issue.record("\(benchmarkCase.id): \(error)"); continue
                }
                #expect(why.contains(workload.name) || why.contains("stride"), "\(benchmarkCase.id): \(why)")
            } catch {
                Issue.record("\(benchmarkCase.id): \(error)")
            }
        }
    }

    @Test("every registered backend is opened with its own concrete type by Backend.specialized")
    func everyBackendSpecializes() throws {
        struct TypeName: RuntimeTypeConsumer {
            func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> String { R.id }
        }
        for backend in Backends.all {
            #expect(try backend.specialized(TypeName()) == backend.id)
        }
    }
}

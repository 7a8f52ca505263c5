import Harness
import Results
import Testing

@Suite("case ids and batch calibration")
struct CaseAndCalibrationTests {
    @Test("a case id is readable, stable and keeps the parameter order")
    func caseID() {
        let apply = BenchmarkCase(
            workload: "apply-stride", backend: "libdispatch",
            parameters: [Parameter("body", "10ns"), Parameter("stride", "auto")], allocator: .system)
        #expect(apply.id == "apply-stride/libdispatch/body=10ns,stride=auto/system")
        let mutex = BenchmarkCase(
            workload: "mutex-uncontended", backend: BenchmarkCase.noBackend, parameters: [], allocator: .jemalloc)
        #expect(mutex.id == "mutex-uncontended/none/-/jemalloc")
        #expect(apply.parameter("stride") == "auto" && apply.parameter("threads") == nil)
    }

    @Test("calibration reaches the target with an operation of known cost", arguments: [1, 37, 5_000, 2_000_000])
    func calibration(nanosecondsPerOperation: Int) {
        var probes = 0
        let batch = Calibration.batchSize(target: .milliseconds(10)) { n in
            probes += 1
            return .nanoseconds(n * nanosecondsPerOperation)
        }
        let sampleTime = Duration.nanoseconds(batch * nanosecondsPerOperation)
        #expect(sampleTime >= .milliseconds(10), "a sample of \(batch) operations lasts \(sampleTime)")
        #expect(
            sampleTime <= .milliseconds(25), "a sample of \(batch) operations lasts \(sampleTime): far past the target")
        #expect(probes <= 40)
    }

    @Test("a cost paid once per run does not shrink the batch: samples still last the target")
    func fixedCostPerRun() {
        // 20 ns an operation, plus 5 ms per run (a thread woken on a loaded machine): scaled from
        // its first probe alone, the batch was 3 and a sample 5 ms of wake and 60 ns of work.
        var probes = 0
        let batch = Calibration.batchSize(target: .milliseconds(10)) { n in
            probes += 1
            return .milliseconds(5) + .nanoseconds(20 * n)
        }
        let work = Duration.nanoseconds(20 * batch)
        #expect(work >= .milliseconds(5), "a sample of \(batch) operations has \(work) of them")
        #expect(work <= .milliseconds(30), "a sample of \(batch) operations has \(work) of them")
        #expect(probes <= 12)
    }

    @Test("a probe that stalls is confirmed, and the batch grown to the target")
    func stalledProbe() {
        // 25 ns an operation; the first run of 1,024 or more stalls for 40 ms (a preemption).
        var stalled = false
        let batch = Calibration.batchSize(target: .milliseconds(10)) { n in
            var took = Duration.nanoseconds(25 * n)
            if n >= 1_024 && !stalled {
                stalled = true
                took += .milliseconds(40)
            }
            return took
        }
        let sample = Duration.nanoseconds(25 * batch)
        #expect(sample >= .milliseconds(10), "a sample of \(batch) operations lasts \(sample)")
        #expect(sample <= .milliseconds(40), "a sample of \(batch) operations lasts \(sample)")
    }

    @Test("an operation that reads as free is capped, not looped on for ever")
    func freeOperation() {
        #expect(Calibration.batchSize { _ in .zero } == Calibration.maximumBatch)
    }

    @Test("an operation slower than the target runs once per sample")
    func slowOperation() {
        #expect(Calibration.batchSize(target: .milliseconds(10)) { n in .milliseconds(50 * n) } == 1)
    }
}

@Suite("CPU pinning")
struct CPUAffinityTests {
    @Test("--cpus lists and ranges parse; nonsense and missing CPUs are refused with the reason")
    func parse() throws {
        #expect(try CPUAffinity.parse("0") == [0])
        #expect(try CPUAffinity.parse("1,0,0-1") == [0, 1])
        #expect(throws: PlanError.self) { try CPUAffinity.parse("a") }
        #expect(throws: PlanError.self) { try CPUAffinity.parse("1-0") }
        #expect(throws: PlanError.self) { try CPUAffinity.parse("4096") }
        do { _ = try CPUAffinity.parse("0,,1") } catch { #expect(error.description.contains("'0,,1'")) }
    }

    @Test("the current affinity is the set of usable CPUs")
    func current() {
        let cpus = CPUAffinity.current()
        #expect(!cpus.isEmpty)
        #expect(cpus.allSatisfy { $0 >= 0 })
    }
}

@Suite("run plan: bad input")
struct RunPlanTests {
    @Test(
        "an invalid filter says where it stops being valid", arguments: [("mutex(", 6), ("a[b", 2), ("spin/(x|y", 6)])
    func invalidFilter(pattern: String, position: Int) {
        do {
            _ = try RunPlan(
                workloads: [], suite: .smoke, backends: [], allocators: [.system], filter: pattern, repetitions: 1)
            Issue.record("'\(pattern)' was accepted")
        } catch {
            #expect(error.description.contains("at character \(position)"), "\(error)")
        }
    }

    @Test("zero repetitions are refused")
    func zeroRepetitions() {
        #expect(throws: PlanError.self) {
            try RunPlan(workloads: [], suite: .smoke, backends: [], allocators: [.system], filter: nil, repetitions: 0)
        }
    }
}

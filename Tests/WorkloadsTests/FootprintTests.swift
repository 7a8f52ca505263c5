import Backends
import Harness
import Results
import PThreadPrimitives
import Testing
@testable import Workloads

/// footprint: threads and queued blocks are held, counted and released on every backend, the
/// memory figures are reported, and a block the runtime loses fails the case by its deadline.
@Suite("footprint: waiting units are held, released and counted")
struct FootprintTests {
    static func operation(
        _ unit: Footprint.Unit, on backend: Backend?, units: Int = 32, timeout: Duration = .seconds(300)
    ) throws -> any MeasuredOperation {
        let benchmarkCase = BenchmarkCase(
            workload: "footprint", backend: backend?.id ?? BenchmarkCase.noBackend,
            parameters: [Parameter("unit", unit.rawValue), Parameter("units", "\(units)")], allocator: .system)
        return try Footprint(timeout: timeout).prepare(benchmarkCase, backend: backend)
    }

    @Test(
        "blocks queued behind a sync run once each on every backend, and the figures are reported",
        arguments: workloadBackends)
    func queuedBlocks(backend: Backend) async throws {
        let figures = try await onDedicatedThread {
            let operation = try Self.operation(.queuedBlock, on: backend)
            try operation.run(1)
            try operation.run(100)
            try operation.finish()
            return operation.workloadMetrics
        }
        #expect(figures["footprint.resident_bytes_per_unit"]?.unit == .bytes)
        #expect(figures["footprint.virtual_bytes_per_unit"] != nil)
    }

    @Test("parked threads are all started, released and joined")
    func parkedThreads() async throws {
        let figures = try await onDedicatedThread {
            let operation = try Self.operation(.thread, on: nil, units: 8)
            try operation.run(20)
            try operation.finish()
            return operation.workloadMetrics
        }
        #expect(figures.count == 2)
    }

    @Test("a queued block the runtime loses fails the measurement by its deadline")
    func lostBlockIsCaught() async throws {
        let message = try await onDedicatedThread { () -> String? in
            do {
                let holder = QueuedBlocks(
                    runtime: FaultyRuntime(fault: .drop(submission: 0)), timeout: .milliseconds(500))
                _ = try FootprintOperation(units: 4, holding: holder)
                return nil
            } catch let error as WorkloadError {
                return verificationMessage(error)
            }
        }
        #expect(message?.contains("queued blocks did not run") == true, "\(message ?? "no failure")")
    }

    @Test("footprint refuses a bad unit or count, and runs threads under \"none\"")
    func parameters() {
        for parameters in [[Parameter("unit", "fiber")], [Parameter("unit", "thread"), Parameter("units", "0")]] {
            let benchmarkCase = BenchmarkCase(
                workload: "footprint", backend: BenchmarkCase.noBackend, parameters: parameters, allocator: .system)
            #expect(throws: WorkloadError.self) { _ = try Footprint().prepare(benchmarkCase, backend: nil) }
        }
        #expect(!Footprint().usesBackend(for: [Parameter("unit", "thread")]))
        #expect(Footprint().usesBackend(for: [Parameter("unit", "queued-block")]))
    }
}

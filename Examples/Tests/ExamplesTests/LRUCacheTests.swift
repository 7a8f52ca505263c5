import Backends
import ConditionPool
import Harness
import PThreadPrimitives
@testable import LRUCacheWorkload
import Results
import Testing

@Suite("lru-cache: the workload on every runtime, this package's among them")
struct LRUCacheTests {
    static let backends = Backends.builtIn + [Backend(registering: ConditionPool.self)]

    /// On a thread of its own, awaited rather than joined: Swift Testing runs tests on the
    /// cooperative pool, whose threads the swift-concurrency backend's tasks need meanwhile.
    @Test(
        "each guard's lookups all counted, the cache never over capacity, on every backend",
        arguments: LRUCache.Guard.allCases)
    func everyBackend(guarding: LRUCache.Guard) async throws {
        let failure: String? = await withCheckedContinuation { continuation in
            PThread.spawn {
                do {
                    for backend in Self.backends {
                        let benchmarkCase = BenchmarkCase(
                            workload: "lru-cache", backend: backend.id,
                            parameters: [Parameter("guard", guarding.rawValue)], allocator: .system)
                        let operation: any MeasuredOperation
                        do {
                            operation = try LRUCache().prepare(benchmarkCase, backend: backend)
                        } catch WorkloadError.notApplicable {
                            continue  // the backend declares what the guard needs unsupported (nio)
                        }
                        try operation.run(10_000)
                        try operation.run(3)
                        try operation.finish()
                    }
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: "\(error)")
                }
            }.detach()
        }
        #expect(failure == nil)
    }

    @Test("the cache keeps the most recent entries: a hit moves a key to the front")
    func recency() {
        var entries = Entries()
        for key in 0..<3 { entries.lookUp(key, capacity: 3) }
        entries.lookUp(0, capacity: 3)  // 0 is now the newest, 1 the oldest
        entries.lookUp(3, capacity: 3)  // evicts 1
        entries.lookUp(0, capacity: 3)
        entries.lookUp(1, capacity: 3)
        #expect(entries.hits == 2 && entries.misses == 5 && entries.count == 3)
    }
}

import CaseCatalogue
import Backends
import CBodyCost
import Harness
import Results
#if canImport(Glibc)
import Glibc
#endif

/// `malloc-free`: one `malloc(size)`, a write to the block, one `free`, on the calling thread.
/// The allocator dimension's baseline (system malloc against jemalloc), and the known allocation
/// pattern that checks the jemalloc counters: exactly `size` bytes per operation when `size` is
/// one of jemalloc's size classes.
public struct MallocFree: Workload {
    public init() {}

    public let name = WorkloadName.mallocFree.rawValue
    public let summary = "malloc + free of one block on the calling thread"
    public let operation = "one malloc + free"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        let sizes = suite == .full ? [16, 256, 4096, 65_536] : [64, 4096]
        return sizes.map { [Parameter("size", "\($0)")] }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        MallocOperation(size: try benchmarkCase.integer("size", in: 1...(1 << 30)))
    }
}

final class MallocOperation: MeasuredOperation {
    let size: Int
    private var failed = false

    init(size: Int) { self.size = size }

    func run(_ count: Int) throws {
        for _ in 0..<count {
            guard let block = malloc(size) else { failed = true; continue }
            block.storeBytes(of: 1, as: UInt8.self)
            rb_escape(block)  // without it the optimizer deletes the malloc/free pair
            free(block)
        }
    }

    func finish() throws {
        if failed { throw WorkloadError.verificationFailed("malloc(\(size)) returned NULL") }
    }
}

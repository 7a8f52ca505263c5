import CaseCatalogue
import Backends
import CBodyCost
import Harness
import Results

/// `object-alloc`: one instance of a Swift class allocated, handed to code the optimizer cannot
/// see (so it stays on the heap), and released, on the calling thread. What a class instance
/// costs under each allocator, and the known pattern that checks the interposer's counts: one
/// object, one malloc, one free and one release per operation, no retain.
public struct ObjectAlloc: Workload {
    public init() {}

    public let name = WorkloadName.objectAlloc.rawValue
    public let summary = "allocate and release one Swift class instance on the calling thread"
    public let operation = "one object allocated and released"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        suite == .smoke ? [] : [[]]
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        ObjectAllocOperation()
    }
}

/// The object: a header and one stored word, 24 bytes.
final class AllocatedObject {
    var value: Int
    init(_ value: Int) { self.value = value }
}

final class ObjectAllocOperation: MeasuredOperation {
    private var checksum = 0
    private var expected = 0

    func run(_ count: Int) throws {
        for index in 0..<count {
            let object = AllocatedObject(index)
            // Its address escapes to C, so the object cannot be promoted to the stack.
            rb_escape(Unmanaged.passUnretained(object).toOpaque())
            checksum &+= object.value
            expected &+= index
        }
    }

    func finish() throws {
        if checksum != expected { throw WorkloadError.verificationFailed("objects held \(checksum), not \(expected)") }
    }
}

import CaseCatalogue
import Backends
import Harness
import Results
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `thread-spawn`: the guide's "threads" baseline for `spawn`: a thread per task, created with
/// `pthread_create` and joined with `pthread_join`, running a body that only counts itself.
/// No runtime (backend "none"). `pthread_join` has no timeout, and none is needed: the thread's
/// body cannot block, and a `pthread_create` that fails stops the child with its error code.
public struct ThreadSpawn: Workload {
    public init() {}

    public let name = WorkloadName.threadSpawn.rawValue
    public let summary = "a thread per task: pthread_create + pthread_join of a thread that only counts"
    public let operation = "one pthread_create + pthread_join"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] { [[]] }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        ThreadSpawnOperation()
    }
}

/// Calls `pthread_create` with a C function and the counter as its context, as a C program
/// would: `PThread.spawn` boxes a closure per thread, an allocation the C reference (`direct`,
/// operation=pthread-create-join) does not make.
public final class ThreadSpawnOperation: MeasuredOperation {
    private let ran = Counter()
    private var expected = 0

    public init() {}

    public func run(_ count: Int) throws {
        let context = Unmanaged.passUnretained(ran).toOpaque()
        for _ in 0..<count {
            var thread = pthread_t()
            let created = pthread_create(&thread, nil, Counter.body, context)
            precondition(created == 0, "pthread_create failed: \(created) (out of threads or memory?)")
            let joined = pthread_join(thread, nil)
            precondition(joined == 0, "pthread_join failed: \(joined)")
        }
        expected += count
    }

    public func finish() throws {
        let reached = ran.value
        guard reached == expected else {
            throw WorkloadError.verificationFailed(
                "\(reached) threads ran their body, \(expected) were created and joined")
        }
    }

    private final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func increment() { count.wrappingAdd(1, ordering: .relaxed) }
        /// relaxed is enough: `pthread_join` orders every increment before the read.
        var value: Int { count.load(ordering: .relaxed) }

        /// A thread's body: counts itself. The counter outlives the thread, which is joined.
        static let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
            Unmanaged<Counter>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.increment() }
            return nil
        }
    }
}

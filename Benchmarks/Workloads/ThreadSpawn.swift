import Backends
import Harness
import PThreadPrimitives
import Synchronization

/// `thread-spawn`: the guide's "threads" baseline for `spawn`: a thread per task, created with
/// `pthread_create` and joined with `pthread_join`, running a body that only counts itself.
/// No runtime (backend "none"). `pthread_join` has no timeout, and none is needed: the thread's
/// body cannot block, and a `pthread_create` that fails stops the child with its error code.
public struct ThreadSpawn: Workload {
    public init() {}

    public let name = "thread-spawn"
    public let summary = "a thread per task: pthread_create + pthread_join of a thread that only counts"
    public let operation = "one pthread_create + pthread_join"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] { [[]] }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        ThreadSpawnOperation()
    }
}

public final class ThreadSpawnOperation: MeasuredOperation {
    private let ran = Counter()
    private let body: @Sendable () -> Void
    private var expected = 0

    public init() {
        let ran = self.ran
        body = { ran.increment() }  // built once: a thread's start costs only PThread's own box
    }

    public func run(_ count: Int) throws {
        for _ in 0..<count { PThread.spawn(body).join() }
        expected += count
    }

    public func finish() throws {
        let reached = ran.value
        guard reached == expected else {
            throw WorkloadError.verificationFailed("\(reached) threads ran their body, \(expected) were created and joined")
        }
    }

    private final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func increment() { count.wrappingAdd(1, ordering: .relaxed) }
        /// relaxed is enough: `pthread_join` orders every increment before the read.
        var value: Int { count.load(ordering: .relaxed) }
    }
}

import CaseCatalogue
import Backends
import Harness
import Results
import PThreadPrimitives

/// `mutex-uncontended`: `pthread_mutex_lock` + `pthread_mutex_unlock` on one thread. The design
/// brief's first target is that the harness reports this within 1 ns of a C program doing the
/// same. glibc takes a cheaper path while a process has a single thread, so the process shape
/// is a parameter: `threads=1` (only the measuring thread) or `threads=2` (an idle second thread
/// exists, as in any process with a pool).
public struct MutexUncontended: Workload {
    public init() {}

    public let name = WorkloadName.mutexUncontended.rawValue
    public let summary = "pthread mutex lock + unlock with no contention, in a 1- or 2-thread process"
    public let operation = "one lock + unlock"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        suite == .smoke ? [[Parameter("threads", "2")]] : [[Parameter("threads", "1")], [Parameter("threads", "2")]]
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let wanted: Int
        switch benchmarkCase.parameter("threads") {
        case "1": wanted = 1
        case "2": wanted = 2
        case let other:
            throw WorkloadError.badParameter("mutex-uncontended needs threads=1 or threads=2, got \(other ?? "none")")
        }
        let operation = MutexOperation(idleThread: wanted == 2)
        if let threads = processThreadCount(), threads != wanted {
            try? operation.finish()
            throw WorkloadError.notApplicable(
                "the process has \(threads) threads, not \(wanted): the condition cannot be produced here")
        }
        return operation
    }
}

final class MutexOperation: MeasuredOperation {
    private let mutex = PThreadMutex()
    private var count = 0  // guarded by mutex: the critical section has a body, and a result to verify
    private var expected = 0
    private let idle: IdleThread?

    init(idleThread: Bool) {
        idle = idleThread ? IdleThread() : nil
    }

    func run(_ operations: Int) throws {
        for _ in 0..<operations {
            mutex.lock()
            count &+= 1
            mutex.unlock()
        }
        expected &+= operations
    }

    func finish() throws {
        idle?.stop()
        let reached = mutex.withLock { count }
        guard reached == expected else {
            throw WorkloadError.verificationFailed("counter reached \(reached), expected \(expected)")
        }
    }
}

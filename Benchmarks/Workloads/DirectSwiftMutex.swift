import CaseCatalogue
import Harness
import Results
import Synchronization

/// The `direct` reference for queue-vs-lock's swift-mutex guard: `Mutex.withLock` in a plain loop,
/// the idiomatic Swift lock, with nothing of the workload's guard or threads around it.
final class SwiftMutexDirectOperation: MeasuredOperation {
    private let mutex = Mutex(0)
    private var performed = 0

    func run(_ count: Int) throws {
        for _ in 0..<count { mutex.withLock { $0 &+= 1 } }
        performed += count
    }

    func finish() throws {
        let reached = mutex.withLock { $0 }
        guard reached == performed else {
            throw WorkloadError.verificationFailed("counter reached \(reached), expected \(performed)")
        }
    }
}

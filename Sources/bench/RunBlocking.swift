import PThreadPrimitives
import Synchronization

/// Runs `body` as a task and blocks the calling (main) thread until it finishes. The main thread
/// is not one of the cooperative pool's, so blocking it starves nothing.
func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let finished = MutexSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    Task.detached {
        do { try await body() } catch { failure.withLock { $0 = error } }
        finished.signal()
    }
    finished.wait()
    if let error = failure.withLock({ $0 }) { throw error }
}

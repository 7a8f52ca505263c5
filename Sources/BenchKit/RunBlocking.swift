import PThreadPrimitives
import Synchronization

/// Runs `body` as a task and blocks the calling (main) thread until it finishes, returning what
/// it returned. The main thread is not one of the cooperative pool's, so blocking it starves
/// nothing.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let finished = MutexSemaphore(value: 0)
    let outcome = Mutex<Result<T, any Error>?>(nil)
    Task.detached {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        finished.signal()
    }
    finished.wait()
    return try outcome.withLock { $0 }!.get()
}

#if canImport(Glibc)
import Glibc
#endif

/// A `pthread_mutex_t` at a stable heap address (a pthread mutex must never move once used).
public final class PThreadMutex: @unchecked Sendable {
    @usableFromInline let raw: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        raw = .allocate(capacity: 1)
        let rc = pthread_mutex_init(raw, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(raw)
        raw.deallocate()
    }

    @inlinable
    public func lock() {
        let rc = pthread_mutex_lock(raw)
        precondition(rc == 0, "pthread_mutex_lock failed: \(rc)")
    }

    @inlinable
    public func unlock() {
        let rc = pthread_mutex_unlock(raw)
        precondition(rc == 0, "pthread_mutex_unlock failed: \(rc)")
    }

    @inlinable
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

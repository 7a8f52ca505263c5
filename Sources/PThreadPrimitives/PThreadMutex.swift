#if canImport(Glibc)
import Glibc
#endif

/// A `pthread_mutex_t` at a stable heap address (a pthread mutex must never move once used).
public final class PThreadMutex: @unchecked Sendable {
    @usableFromInline let raw: UnsafeMutablePointer<pthread_mutex_t>

    /// - Parameter spinning: a glibc adaptive mutex (`PTHREAD_MUTEX_ADAPTIVE_NP`), which spins a
    ///   little on a held lock before it sleeps in the kernel. For locks held for a few dozen
    ///   nanoseconds by threads that all run (a work-stealing injector), where sleeping on every
    ///   collision costs a futex wait and wake, microseconds, for a wait of nanoseconds.
    public init(spinning: Bool = false) {
        raw = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        if spinning { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP)) }
        let rc = pthread_mutex_init(raw, &attributes)
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

#if canImport(Glibc)
import Glibc
#endif

/// A `pthread_cond_t` that measures timeouts on CLOCK_MONOTONIC, so a wall-clock jump (NTP, a VM
/// resuming) can neither cut a timed wait short nor stretch it.
public final class PThreadCondition: @unchecked Sendable {
    @usableFromInline let raw: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        raw = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        let rc = pthread_cond_init(raw, &attributes)
        pthread_condattr_destroy(&attributes)
        precondition(rc == 0, "pthread_cond_init failed: \(rc)")
    }

    deinit {
        pthread_cond_destroy(raw)
        raw.deallocate()
    }

    /// Waits for a signal. The caller holds `mutex`; spurious wake-ups happen, so callers loop on
    /// their own predicate.
    @inlinable
    public func wait(_ mutex: PThreadMutex) {
        let rc = pthread_cond_wait(raw, mutex.raw)
        precondition(rc == 0, "pthread_cond_wait failed: \(rc)")
    }

    /// Waits for a signal until `deadline`. Returns false once the deadline has passed.
    public func wait(_ mutex: PThreadMutex, until deadline: MonotonicInstant) -> Bool {
        // A deadline already past times out at once: the kernel would sleep until its expired
        // timer fires, up to the timer slack (50 µs) late, and a zero-timeout wait took 80 µs.
        if MonotonicInstant.now >= deadline { return false }
        var spec = deadline.absoluteTime
        let rc = pthread_cond_timedwait(raw, mutex.raw, &spec)
        precondition(rc == 0 || rc == ETIMEDOUT, "pthread_cond_timedwait failed: \(rc)")
        return rc == 0
    }

    /// Wakes one waiter, if any.
    @inlinable
    public func signal() { pthread_cond_signal(raw) }

    /// Wakes every waiter.
    @inlinable
    public func broadcast() { pthread_cond_broadcast(raw) }
}

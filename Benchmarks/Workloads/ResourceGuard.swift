import PThreadPrimitives
import RuntimeKit
import Synchronization

/// One way of keeping queue-vs-lock's `SharedResource` to one thread at a time. `withSection`
/// performs one critical section; `settle` waits for sections that were handed off and not yet
/// run (only the `async` queue has any), then checks the resource under the guard.
///
/// A class per guard, generic where the guard comes from a backend, so every critical section is
/// a direct call the compiler can specialize: the cost measured is the guard's, not a box's.
protocol ResourceGuard: AnyObject, Sendable {
    func withSection()
    /// What is wrong after `expected` sections (`SharedResource.inconsistency`), or nil.
    func settle(expected: Int) -> String?
}

/// State only ever touched under a guard that is not a Swift `Mutex`: the guard provides the
/// exclusion and the ordering, which is what `@unchecked` asserts.
final class GuardedResource: @unchecked Sendable {
    var resource: SharedResource
    init(_ resource: SharedResource) { self.resource = resource }
}

/// `pthread_mutex_lock` / `unlock` (glibc's default, non-spinning mutex).
final class PThreadMutexGuard: ResourceGuard {
    private let mutex = PThreadMutex()
    private let state: GuardedResource
    init(_ resource: SharedResource) { state = GuardedResource(resource) }

    func withSection() {
        mutex.lock()
        state.resource.update()
        mutex.unlock()
    }

    func settle(expected: Int) -> String? { mutex.withLock { state.resource.inconsistency(expected: expected) } }
}

/// The standard library's `Mutex` (Synchronization), which owns the value it guards.
final class SwiftMutexGuard: ResourceGuard {
    private let mutex: Mutex<SharedResource>
    init(_ resource: SharedResource) { mutex = Mutex(resource) }

    func withSection() { mutex.withLock { $0.update() } }
    func settle(expected: Int) -> String? { mutex.withLock { $0.inconsistency(expected: expected) } }
}

/// The test-and-test-and-set `SpinLock`.
final class SpinLockGuard: ResourceGuard {
    private let lock = SpinLock()
    private let state: GuardedResource
    init(_ resource: SharedResource) { state = GuardedResource(resource) }

    func withSection() {
        lock.lock()
        state.resource.update()
        lock.unlock()
    }

    func settle(expected: Int) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return state.resource.inconsistency(expected: expected)
    }
}

/// A backend's semaphore of value 1 used as a lock: wait, section, signal.
final class SemaphoreGuard<S: CountingSemaphore>: ResourceGuard {
    private let semaphore: S
    private let state: GuardedResource
    init(_ resource: SharedResource, semaphore: S) {
        self.semaphore = semaphore
        state = GuardedResource(resource)
    }

    func withSection() {
        semaphore.wait()
        state.resource.update()
        semaphore.signal()
    }

    func settle(expected: Int) -> String? {
        semaphore.wait()
        defer { semaphore.signal() }
        return state.resource.inconsistency(expected: expected)
    }
}

/// A backend's serial queue: every section is a `sync` block, run on the calling thread once the
/// queue is free (the guide's replacement for a lock).
final class QueueSyncGuard<Q: SerialQueue>: ResourceGuard {
    private let queue: Q
    private let state: GuardedResource
    init(_ resource: SharedResource, queue: Q) {
        self.queue = queue
        state = GuardedResource(resource)
    }

    func withSection() { queue.sync { state.resource.update() } }
    func settle(expected: Int) -> String? { queue.sync { state.resource.inconsistency(expected: expected) } }
}

/// A backend's serial queue, fire and forget: every section is an `async` block; the caller goes
/// on at once and the queue's worker runs the sections. `settle` (a `sync` behind them) is part
/// of every run, so a run is timed until its last section has run, not just submitted.
final class QueueAsyncGuard<Q: SerialQueue>: ResourceGuard {
    private let queue: Q
    private let state: GuardedResource
    /// Built once: submitting it retains one context, it allocates no new closure per section.
    private let section: @Sendable () -> Void
    init(_ resource: SharedResource, queue: Q) {
        self.queue = queue
        let state = GuardedResource(resource)
        self.state = state
        section = { state.resource.update() }
    }

    func withSection() { queue.async(section) }
    func settle(expected: Int) -> String? { queue.sync { state.resource.inconsistency(expected: expected) } }
}

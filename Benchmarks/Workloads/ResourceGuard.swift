import CBodyCost
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// One way of keeping queue-vs-lock's `SharedResource` to one thread at a time. `sections`
/// performs a run of critical sections, each followed by the case's outside work; `settle` waits
/// for sections that were handed off and not yet run (only the `async` queue has any), then
/// checks the resource under the guard.
///
/// A class per guard, generic where the guard comes from a backend. `sections` is a closure built
/// in `init`, which runs specialized for the backend (`Backend.specialized`), so the closure's
/// body is too, the loop and the guard and the update in one function (`SectionLoop`): the
/// contending threads make one indirect call per chunk of sections and nothing else.
/// Calling a generic guard's method through the threads' code instead runs it unspecialized, and a
/// serial queue's `sync` then looks up `Result<T, E>`'s metadata on every call, which costs more
/// than the section (Benchmarks/README.md, "What the references found").
protocol ResourceGuard: AnyObject, Sendable {
    var sections: SectionLoop { get }
    /// What is wrong after `expected` sections (`SharedResource.inconsistency`), or nil.
    func settle(expected: Int) -> String?
}

/// Performs `count` critical sections, each followed by `outsideRounds` of the spin (the case's
/// work outside the guard). Each guard writes the loop out with its section in it: the guard, the
/// update and the spin then compile into one function. A loop that calls a section closure, or
/// takes one as an always-inlined helper's argument, left the queue's `sync` out of line, and the
/// frames around its two compare-and-exchanges (which wait for the stores before them) cost
/// fifo-dispatch's uncontended sync as much as the sync itself.
typealias SectionLoop = @Sendable (_ count: Int, _ outsideRounds: UInt64) -> Void

/// State only ever touched under a guard that is not a Swift `Mutex`: the guard provides the
/// exclusion and the ordering, which is what `@unchecked` asserts. The resource lives behind a
/// pointer, not in a class `var`, whose every access would add Swift's dynamic exclusivity check
/// (a large share of an uncontended mutex section's cost) to what is measured.
final class GuardedResource: @unchecked Sendable {
    let resource: UnsafeMutablePointer<SharedResource>
    init(_ initial: SharedResource) {
        resource = .allocate(capacity: 1)
        resource.initialize(to: initial)
    }
    deinit {
        resource.deinitialize(count: 1)
        resource.deallocate()
    }
}

/// `pthread_mutex_lock` / `unlock` (glibc's default, non-spinning mutex).
final class PThreadMutexGuard: ResourceGuard {
    private let mutex = PThreadMutex()
    private let state: GuardedResource
    let sections: SectionLoop
    init(_ resource: SharedResource) {
        let (mutex, state) = (mutex, GuardedResource(resource))
        self.state = state
        sections = { count, outsideRounds in
            for _ in 0..<count {
                mutex.lock()
                state.resource.pointee.update()
                mutex.unlock()
                rb_spin(outsideRounds)
            }
        }
    }

    func settle(expected: Int) -> String? {
        mutex.withLock { state.resource.pointee.inconsistency(expected: expected) }
    }
}

/// The standard library's `Mutex` (Synchronization), which owns the value it guards.
final class SwiftMutexGuard: ResourceGuard {
    /// A class around the `Mutex` (which is `~Copyable`) so the section closure can hold it.
    private final class Lock: Sendable {
        let mutex: Mutex<SharedResource>; init(_ r: SharedResource) { mutex = Mutex(r) }
    }
    private let lock: Lock
    let sections: SectionLoop
    init(_ resource: SharedResource) {
        let lock = Lock(resource)
        self.lock = lock
        sections = { count, outsideRounds in
            for _ in 0..<count {
                lock.mutex.withLock { $0.update() }
                rb_spin(outsideRounds)
            }
        }
    }

    func settle(expected: Int) -> String? { lock.mutex.withLock { $0.inconsistency(expected: expected) } }
}

/// The test-and-test-and-set `SpinLock`.
final class SpinLockGuard: ResourceGuard {
    private let lock = SpinLock()
    private let state: GuardedResource
    let sections: SectionLoop
    init(_ resource: SharedResource) {
        let (lock, state) = (lock, GuardedResource(resource))
        self.state = state
        sections = { count, outsideRounds in
            for _ in 0..<count {
                lock.lock()
                state.resource.pointee.update()
                lock.unlock()
                rb_spin(outsideRounds)
            }
        }
    }

    func settle(expected: Int) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return state.resource.pointee.inconsistency(expected: expected)
    }
}

/// A backend's semaphore of value 1 used as a lock: wait, section, signal.
final class SemaphoreGuard<S: CountingSemaphore>: ResourceGuard {
    private let semaphore: S
    private let state: GuardedResource
    let sections: SectionLoop
    init(_ resource: SharedResource, semaphore: S) {
        let state = GuardedResource(resource)
        self.semaphore = semaphore
        self.state = state
        sections = { count, outsideRounds in
            for _ in 0..<count {
                semaphore.wait()
                state.resource.pointee.update()
                semaphore.signal()
                rb_spin(outsideRounds)
            }
        }
    }

    func settle(expected: Int) -> String? {
        semaphore.wait()
        defer { semaphore.signal() }
        return state.resource.pointee.inconsistency(expected: expected)
    }
}

/// A backend's serial queue: every section is a `sync` block, run on the calling thread once the
/// queue is free (the guide's replacement for a lock).
///
/// The section is a C function and the resource its context (`sync(context:_:)`, the
/// `dispatch_sync_f` form): a closure reaching a C callback is boxed, retained and freed on every
/// call, which costs several times `dispatch_sync_f` itself (Benchmarks/README.md, "What the
/// references found"). The closure form's own cost is measured by `direct`, operation=sync, on
/// libdispatch (`DispatchQueue.sync { }`).
final class QueueSyncGuard<Q: SerialQueue>: ResourceGuard {
    private let queue: Q
    private let state: GuardedResource
    let sections: SectionLoop
    init(_ resource: SharedResource, queue: Q) {
        let state = GuardedResource(resource)
        self.queue = queue
        self.state = state
        // The function is written here, not taken from a constant: once the queue's `sync` is
        // inlined, the compiler sees which function runs and inlines the update into it.
        sections = { count, outsideRounds in
            for _ in 0..<count {
                queue.sync(context: UnsafeMutableRawPointer(state.resource)) { context in
                    context.unsafelyUnwrapped.assumingMemoryBound(to: SharedResource.self).pointee.update()
                }
                rb_spin(outsideRounds)
            }
        }
    }

    func settle(expected: Int) -> String? { queue.sync { state.resource.pointee.inconsistency(expected: expected) } }
}

/// A backend's serial queue, fire and forget: every section is an `async` block; the caller goes
/// on at once and the queue's worker runs the sections. `settle` (a `sync` behind them) is part
/// of every run, so a run is timed until its last section has run, not just submitted.
final class QueueAsyncGuard<Q: SerialQueue>: ResourceGuard {
    private let queue: Q
    private let state: GuardedResource
    let sections: SectionLoop
    init(_ resource: SharedResource, queue: Q) {
        let state = GuardedResource(resource)
        self.queue = queue
        self.state = state
        // The block is built once, as a function and its context: libdispatch-c submits it with
        // `dispatch_async_f` (a closure would be boxed per section, which costs more than the
        // submission), the other backends submit its closure, which costs a retain.
        let block = FunctionBlock(context: UnsafeMutableRawPointer(state.resource), updateResource)
        sections = { count, outsideRounds in
            for _ in 0..<count {
                queue.async(block)
                rb_spin(outsideRounds)
            }
        }
    }

    func settle(expected: Int) -> String? { queue.sync { state.resource.pointee.inconsistency(expected: expected) } }
}

/// One critical section as a C function: `context` is the `SharedResource` a guard holds (the
/// `async` guard's block).
private let updateResource: WorkFunction = { context in
    context.unsafelyUnwrapped.assumingMemoryBound(to: SharedResource.self).pointee.update()
}

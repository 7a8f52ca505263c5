#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives

/// One worker thread of a `StealingRuntime`: its own deque, its place in the pool, and a small
/// random generator for picking victims.
final class Worker: @unchecked Sendable {
    let index: Int
    let deque = WorkDeque<StealingJob>()
    /// xorshift64 state: victim choice needs speed and spread, not quality.
    private var random: UInt64

    init(index: Int) {
        self.index = index
        random = 0x9E37_79B9_7F4A_7C15 &* UInt64(index + 1)
    }

    /// A victim index in `0..<count`, never this worker.
    func randomVictim(among count: Int) -> Int {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        let offset = Int(random % UInt64(count - 1)) + 1
        return (index + offset) % count
    }
}

/// Which worker (of which runtime) the calling thread is, through a pthread key: `async` from a
/// worker pushes to its own deque (no lock, no wake-up storm), from elsewhere to the injector.
enum CurrentWorker {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key, nil)
        precondition(rc == 0, "pthread_key_create failed: \(rc)")
        return key
    }()

    static func set(_ worker: Worker, of runtime: StealingRuntime) {
        let slot = WorkerSlot(worker: worker, runtime: runtime)
        pthread_setspecific(key, Unmanaged.passRetained(slot).toOpaque())
    }

    static func clear() {
        if let raw = pthread_getspecific(key) {
            Unmanaged<WorkerSlot>.fromOpaque(raw).release()
            pthread_setspecific(key, nil)
        }
    }

    /// The calling thread's worker if it belongs to `runtime`.
    static func of(_ runtime: StealingRuntime) -> Worker? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let slot = Unmanaged<WorkerSlot>.fromOpaque(raw).takeUnretainedValue()
        return slot.runtime === runtime ? slot.worker : nil
    }

    private final class WorkerSlot {
        let worker: Worker
        unowned(unsafe) let runtime: StealingRuntime  // compared by identity only; the runtime outlives its workers
        init(worker: Worker, runtime: StealingRuntime) {
            self.worker = worker
            self.runtime = runtime
        }
    }
}

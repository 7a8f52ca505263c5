import PThreadPrimitives

/// A second thread that only waits, so a measurement runs in a multi-threaded process: glibc takes
/// cheaper paths (in its mutexes, among others) while a process has one thread, and any process
/// with a pool has more, so a primitive measured without a backend would otherwise be measured in
/// a process shape no real program has.
final class IdleThread {
    private let thread: PThread
    private let release = MutexSemaphore(value: 0)

    init() {
        let release = release
        thread = PThread.spawn { release.wait() }
    }

    /// Lets the thread finish and joins it. Call once.
    func stop() {
        release.signal()
        thread.join()
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A thread created with `pthread_create` (not Foundation's `Thread`), so a backend's workers are
/// plain OS threads with no run loop or autorelease machinery, and can be joined.
public struct PThread: Sendable {
    public let handle: pthread_t

    /// Starts a thread running `body`.
    public static func spawn(_ body: @escaping @Sendable () -> Void) -> PThread {
        final class Start { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Start(body)).toOpaque()
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            start.body()
            return nil
        }, context)
        precondition(rc == 0, "pthread_create failed: \(rc) (out of threads or memory?)")
        return PThread(handle: handle)
    }

    /// Waits for the thread to end.
    public func join() {
        let rc = pthread_join(handle, nil)
        precondition(rc == 0, "pthread_join failed: \(rc)")
    }

    /// Lets the thread end on its own without being joined (its resources are freed when it does).
    public func detach() {
        let rc = pthread_detach(handle)
        precondition(rc == 0, "pthread_detach failed: \(rc)")
    }

    /// True when called on this thread.
    public var isCurrent: Bool { pthread_equal(handle, pthread_self()) != 0 }
}

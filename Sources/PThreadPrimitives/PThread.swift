import CThreadInfo
#if canImport(Glibc)
import Glibc
#endif

/// A thread created with `pthread_create` (not Foundation's `Thread`), so a backend's workers are
/// plain OS threads with no run loop or autorelease machinery, and can be joined.
public struct PThread: Sendable {
    public let handle: pthread_t

    /// Starts a thread running `body`, named `name` when given (at most 15 bytes are kept). A
    /// thread without a name of its own carries its creator's, so a pool's workers would show in
    /// `top -H`, gdb and perf under the name of whatever thread made the pool.
    public static func spawn(name: String? = nil, _ body: @escaping @Sendable () -> Void) -> PThread {
        final class Start {
            let name: String?
            let body: @Sendable () -> Void
            init(_ name: String?, _ body: @escaping @Sendable () -> Void) { self.name = name; self.body = body }
        }
        let context = Unmanaged.passRetained(Start(name, body)).toOpaque()
        var handle = pthread_t()
        let rc = pthread_create(
            &handle, nil,
            { raw in
                let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
                if let name = start.name { _ = rb_thread_set_name(name) }
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

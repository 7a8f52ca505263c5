#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import RuntimeKit

/// The dispatch surface the semantic tests use, implemented twice: over FIFODispatch and over
/// the real libdispatch's C API (the oracle). Every test runs the same code and expectations on
/// both; where libdispatch on Linux differs from the source documents, the test says so.
///
/// Handles are plain objects the adapter made (a FIFOQueue, or a box around a dispatch_queue_t);
/// an adapter only ever receives its own.
protocol DispatchAPI: Sendable, CustomStringConvertible {
    typealias Handle = AnyObject & Sendable

    /// Threads that run blocks at once when nothing blocks.
    var workers: Int { get }

    func makeQueue(_ label: String, concurrent: Bool, qos: Priority?, target: Handle?) -> Handle
    func global(_ priority: Priority) -> Handle
    var mainQueue: Handle { get }
    func label(of queue: Handle) -> String
    /// The label of the queue running the caller; nil (or "" for libdispatch) outside any queue.
    func currentLabel() -> String?

    func async(_ queue: Handle, qos: Priority?, group: Handle?, _ work: @escaping @Sendable () -> Void)
    func asyncBarrier(_ queue: Handle, _ work: @escaping @Sendable () -> Void)
    func sync(_ queue: Handle, _ work: () -> Void)
    func syncBarrier(_ queue: Handle, _ work: () -> Void)
    func suspend(_ queue: Handle)
    func resume(_ queue: Handle)
    func setTarget(_ queue: Handle, _ target: Handle)
    /// A queue with a context and a finalizer; the returned closure drops the caller's reference.
    /// `context` may be nil (libdispatch then skips the finalizer, unless a context is set later).
    func makeQueue(
        _ label: String, context: UnsafeMutableRawPointer?,
        finalizer: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void
    ) -> (queue: Handle, release: @Sendable () -> Void)
    /// Replaces a queue's context (`dispatch_set_context`).
    func setContext(_ queue: Handle, _ context: UnsafeMutableRawPointer?)
    func apply(on queue: Handle, iterations: Int, stride: StridePolicy, _ body: (Int) -> Void)

    func makeSemaphore(_ value: Int) -> Handle
    func wait(_ semaphore: Handle, timeout: Duration?) -> WaitResult
    @discardableResult func signal(_ semaphore: Handle) -> Bool

    func makeGroup() -> Handle
    func enter(_ group: Handle)
    func leave(_ group: Handle)
    func wait(group: Handle, timeout: Duration?) -> WaitResult
    func wait(group: Handle, wallClockTimeout: Duration) -> WaitResult
    func notify(_ group: Handle, on queue: Handle, _ work: @escaping @Sendable () -> Void)

    /// Serves the main queue forever (`dispatch_main`).
    func dispatchMain() -> Never

    func shutdown()
}

extension DispatchAPI {
    func makeQueue(_ label: String, concurrent: Bool = false, qos: Priority? = nil) -> Handle {
        makeQueue(label, concurrent: concurrent, qos: qos, target: nil)
    }
    func async(_ queue: Handle, _ work: @escaping @Sendable () -> Void) {
        async(queue, qos: nil, group: nil, work)
    }
    func async(_ queue: Handle, group: Handle, _ work: @escaping @Sendable () -> Void) {
        async(queue, qos: nil, group: group, work)
    }
}

/// Which implementation a test case runs on (the test's argument).
enum Implementation: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    case fifoDispatch = "fifo-dispatch"
    case libdispatch = "libdispatch"

    var description: String { rawValue }

    /// The implementations the tests run on: both, or those named in DISPATCH_SEMANTICS_IMPLEMENTATIONS
    /// (comma-separated). CI's ThreadSanitizer run names fifo-dispatch only: there the oracle took
    /// 32 of the ported suite's 50 s and checks libdispatch's code, not ours, and the plain run
    /// checks every expectation against it.
    static let underTest: [Implementation] = {
        guard let raw = getenv("DISPATCH_SEMANTICS_IMPLEMENTATIONS"), case let text = String(cString: raw),
            !text.isEmpty
        else { return allCases }
        let named = text.split(separator: ",").map(String.init)
        for name in named where Implementation(rawValue: name) == nil {
            fatalError(
                "DISPATCH_SEMANTICS_IMPLEMENTATIONS names '\(name)'; known: "
                    + allCases.map(\.rawValue).joined(separator: ", "))
        }
        return allCases.filter { named.contains($0.rawValue) }
    }()

    /// A fresh instance; FIFODispatch's with `workers` threads (0 = one per CPU). libdispatch's
    /// pool is the process's and cannot be sized: `workers` is ignored there.
    func make(workers: Int = 0) -> any DispatchAPI {
        switch self {
        case .fifoDispatch: FIFOAPI(workers: workers)
        case .libdispatch: LibdispatchAPI()
        }
    }
}

/// Runs `body` with a fresh API and shuts it down after.
func with<T>(_ implementation: Implementation, workers: Int = 0, _ body: (any DispatchAPI) throws -> T) rethrows -> T {
    let api = implementation.make(workers: workers)
    defer { api.shutdown() }
    return try body(api)
}

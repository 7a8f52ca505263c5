/// A backend's id as cases spell it: the built-in runtimes' ids, and `none` for a case that uses
/// no backend. Each runtime declares its own `id`; a test checks that these name exactly the
/// registered backends, so a renamed runtime fails it instead of leaving a claim unmatched.
public struct BackendName: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let none = BackendName("none")
    public static let pthreadMutex = BackendName("pthread-mutex")
    public static let workStealing = BackendName("work-stealing")
    public static let fifoDispatch = BackendName("fifo-dispatch")
    /// The real libdispatch through Swift's Dispatch API.
    public static let libdispatch = BackendName("libdispatch")
    /// The real libdispatch through its C entry points.
    public static let libdispatchC = BackendName("libdispatch-c")
    public static let swiftConcurrency = BackendName("swift-concurrency")
    /// SwiftNIO's event loop group behind the protocol.
    public static let nio = BackendName("nio")
    /// Swift concurrency with NIO's singleton group as Swift's global executor.
    public static let nioGlobal = BackendName("nio-global")

    /// The runtimes this suite implements itself (the rest wrap what Swift, Dispatch and SwiftNIO ship).
    public static let suiteOwn: [BackendName] = [.pthreadMutex, .workStealing, .fifoDispatch]

    /// The built-in backends, in report order.
    public static let builtIn: [BackendName] = [
        .pthreadMutex, .workStealing, .fifoDispatch, .libdispatch, .libdispatchC, .swiftConcurrency, .nio, .nioGlobal,
    ]
}

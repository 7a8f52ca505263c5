import FIFODispatch
import PThreadRuntime
import StealingRuntime
import RuntimeKit
import SystemRuntimes

/// A registered backend: which runtime it is, opened by generic code (`specialized` calls a
/// `<R: ConcurrencyRuntime>` function with `R` bound to the concrete type, so the workload runs
/// specialized, with no existential on its hot path).
public struct Backend: Sendable, CustomStringConvertible {
    /// One case per backend, in report order. Every switch over it is exhaustive, so a new
    /// backend that is missing from one is a compile error, not a trap at run time.
    public enum Kind: CaseIterable, Sendable {
        case pthreadMutex, workStealing, fifoDispatch, libdispatch, libdispatchC, swiftConcurrency
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var runtime: any ConcurrencyRuntime.Type {
        switch kind {
        case .pthreadMutex: PThreadRuntime.self
        case .workStealing: StealingRuntime.self
        case .fifoDispatch: FIFODispatch.self
        case .libdispatch: DispatchRuntime.self
        case .libdispatchC: CDispatchRuntime.self
        case .swiftConcurrency: SwiftConcurrencyRuntime.self
        }
    }

    public var id: String { runtime.id }
    public var summary: String { runtime.summary }
    public var unsupported: [RuntimeBehaviour: String] { runtime.unsupported }
    public var description: String { id }
}

/// Every backend the suite knows, in report order. A new backend is one folder under Sources
/// conforming to `ConcurrencyRuntime`, a case of `Backend.Kind`, and a line in each switch the
/// compiler then asks about (`runtime`, `specialized`, `joining`, and `Direct.prepare`'s); its id in
/// `BackendName.builtIn`, which a test compares with `ids`.
public enum Backends {
    public static let all: [Backend] = Backend.Kind.allCases.map(Backend.init)

    public static var ids: [String] { all.map(\.id) }

    /// The backend with `id`, or nil.
    public static func named(_ id: String) -> Backend? { all.first { $0.id == id } }
}

/// Generic code that needs a backend's concrete runtime type: `Backend.specialized` calls it with
/// `R` bound statically, so the compiler specializes it (and everything it calls) for each backend.
public protocol RuntimeTypeConsumer {
    associatedtype Output
    func callAsFunction<R: ConcurrencyRuntime>(_ runtime: R.Type) throws -> Output
}

extension Backend {
    /// Calls `consumer` with this backend's runtime type as a compile-time type.
    ///
    /// Calling a generic function with the opened existential `runtime` binds `R` only at run
    /// time: the workload then runs unspecialized, and every generic step on its hot path pays for
    /// it (a serial queue's `sync` looks up `Result<T, E>`'s metadata on every call). This switch
    /// names each type, so inlined into the caller it becomes one specialized call per backend.
    /// Code reached through an existential (`any MeasuredOperation`) is still not specialized:
    /// build the hot path's closures here, where the types are known (see `ResourceGuard`).
    @inlinable
    public func specialized<C: RuntimeTypeConsumer>(_ consumer: C) throws -> C.Output {
        switch kind {
        case .pthreadMutex: try consumer(PThreadRuntime.self)
        case .workStealing: try consumer(StealingRuntime.self)
        case .fifoDispatch: try consumer(FIFODispatch.self)
        case .libdispatch: try consumer(DispatchRuntime.self)
        case .libdispatchC: try consumer(CDispatchRuntime.self)
        case .swiftConcurrency: try consumer(SwiftConcurrencyRuntime.self)
        }
    }
}

/// Generic code that needs a runtime offering `join`: `Backend.joining` calls it with `R` bound
/// statically, as `specialized` does.
public protocol JoiningRuntimeTypeConsumer {
    associatedtype Output
    func callAsFunction<R: JoiningRuntime>(_ runtime: R.Type) throws -> Output
}

extension Backend {
    /// Calls `consumer` with this backend's runtime type when that runtime offers `join`
    /// (`JoiningRuntime`); nil, calling nothing, when it does not.
    @inlinable
    public func joining<C: JoiningRuntimeTypeConsumer>(_ consumer: C) throws -> C.Output? {
        switch kind {
        case .workStealing: try consumer(StealingRuntime.self)
        case .pthreadMutex, .fifoDispatch, .libdispatch, .libdispatchC, .swiftConcurrency: nil
        }
    }

    /// Whether this backend's runtime offers `join`.
    public var offersJoin: Bool { runtime is any JoiningRuntime.Type }
}

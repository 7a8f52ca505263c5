import FIFODispatch
import PThreadRuntime
import StealingRuntime
import RuntimeKit
import SystemRuntimes

/// A registered backend: its runtime type, opened by generic code (`workload(backend.runtime)`
/// calls a `<R: ConcurrencyRuntime>` function with `R` bound to the concrete type, so the
/// workload runs specialized, with no existential on its hot path).
public struct Backend: Sendable, CustomStringConvertible {
    public let runtime: any ConcurrencyRuntime.Type

    public init<R: ConcurrencyRuntime>(_ runtime: R.Type) { self.runtime = runtime }

    public var id: String { runtime.id }
    public var summary: String { runtime.summary }
    public var unsupported: [RuntimeBehaviour: String] { runtime.unsupported }
    public var description: String { id }
}

/// Every backend the suite knows, in report order. A new backend is one folder under Sources
/// conforming to `ConcurrencyRuntime`, plus one line here.
public enum Backends {
    public static let all: [Backend] = [
        Backend(PThreadRuntime.self),
        Backend(StealingRuntime.self),
        Backend(FIFODispatch.self),
        Backend(DispatchRuntime.self),
        Backend(CDispatchRuntime.self),
        Backend(SwiftConcurrencyRuntime.self),
    ]

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
    /// it (a serial queue's `sync` looked up `Result<T, E>`'s metadata on every call). This switch
    /// names each type, so inlined into the caller it becomes one specialized call per backend.
    /// Code reached through an existential (`any MeasuredOperation`) is still not specialized:
    /// build the hot path's closures here, where the types are known (see `ResourceGuard`).
    /// - Precondition: every backend of `Backends.all` has a case here (a test checks it).
    @inlinable
    public func specialized<C: RuntimeTypeConsumer>(_ consumer: C) throws -> C.Output {
        switch runtime {
        case is PThreadRuntime.Type: try consumer(PThreadRuntime.self)
        case is StealingRuntime.Type: try consumer(StealingRuntime.self)
        case is FIFODispatch.Type: try consumer(FIFODispatch.self)
        case is DispatchRuntime.Type: try consumer(DispatchRuntime.self)
        case is CDispatchRuntime.Type: try consumer(CDispatchRuntime.self)
        case is SwiftConcurrencyRuntime.Type: try consumer(SwiftConcurrencyRuntime.self)
        default: preconditionFailure("backend \(id) is in Backends.all but has no case in Backend.specialized")
        }
    }
}

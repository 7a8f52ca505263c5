import FIFODispatch
import NIORuntimes
import PThreadPrimitives
import PThreadRuntime
import RuntimeKit
import StealingRuntime
import SystemRuntimes

/// Every backend this binary knows, in report order: the built-in ones, then those another
/// package registered (`register`, which `Bench.main` calls before anything runs).
///
/// A new built-in backend is one folder under Sources conforming to `ConcurrencyRuntime`, a case
/// of `Backend.Kind`, and a line in each switch the compiler then asks about (`runtime`,
/// `specialized`, `joining`, and `Direct.prepare`'s); its id in `BackendName.builtIn`, which a
/// test compares with `ids`.
public enum Backends {
    public static let builtIn: [Backend] = Backend.Kind.allCases.map(Backend.init)

    /// Written by `register`, normally once before anything reads it. A pthread mutex rather
    /// than `Synchronization.Mutex`, whose lock ThreadSanitizer does not see.
    private static let lock = PThreadMutex()
    nonisolated(unsafe) private static var registered: [Backend] = []

    public static var all: [Backend] { builtIn + lock.withLock { registered } }

    public static var ids: [String] { all.map(\.id) }

    /// The backend with `id`, or nil.
    public static func named(_ id: String) -> Backend? { all.first { $0.id == id } }

    /// Adds another package's runtimes after the built-in ones. An id that another backend (built
    /// in or registered) already has, or the case id's reserved `none`, or an id a case id cannot
    /// carry (empty, or holding `/`, `,`, `=` or a space) is refused, naming both types: a second
    /// runtime under one id would silently take the other's place.
    public static func register(_ runtimes: [any ConcurrencyRuntime.Type]) throws(RegistrationError) {
        try lock.withLock { () throws(RegistrationError) in
            var known = builtIn + registered
            for runtime in runtimes {
                let id = runtime.id
                if let problem = RegistrationError.problem(withID: id, reservingNone: true) {
                    throw .badID(id: id, type: "\(runtime)", problem: problem)
                }
                if let other = known.first(where: { $0.id == id }) {
                    throw .duplicate(id: id, type: "\(runtime)", other: "\(other.runtime)")
                }
                known.append(Backend(registering: runtime))
            }
            registered = Array(known.dropFirst(builtIn.count))
        }
    }
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
        switch origin {
        case .builtIn(.pthreadMutex): try consumer(PThreadRuntime.self)
        case .builtIn(.workStealing): try consumer(StealingRuntime.self)
        case .builtIn(.fifoDispatch): try consumer(FIFODispatch.self)
        case .builtIn(.libdispatch): try consumer(DispatchRuntime.self)
        case .builtIn(.libdispatchC): try consumer(CDispatchRuntime.self)
        case .builtIn(.swiftConcurrency): try consumer(SwiftConcurrencyRuntime.self)
        case .builtIn(.nio): try consumer(NIORuntime.self)
        case .builtIn(.nioGlobal): try consumer(NIOGlobalRuntime.self)
        case .registered(let runtime): try consumer(runtime)  // opened at run time: unspecialized
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
        switch origin {
        case .builtIn(.workStealing): try consumer(StealingRuntime.self)
        case .builtIn(.pthreadMutex), .builtIn(.fifoDispatch), .builtIn(.libdispatch), .builtIn(.libdispatchC),
            .builtIn(.swiftConcurrency), .builtIn(.nio), .builtIn(.nioGlobal):
            nil
        case .registered(let runtime):
            if let joining = runtime as? any JoiningRuntime.Type { try consumer(joining) } else { nil }
        }
    }

    /// Whether this backend's runtime offers `join`.
    public var offersJoin: Bool { runtime is any JoiningRuntime.Type }
}

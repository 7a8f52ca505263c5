import FIFODispatch
import NIORuntimes
import PThreadRuntime
import RuntimeKit
import StealingRuntime
import SystemRuntimes

/// A backend: which runtime it is, opened by generic code (`specialized` calls a
/// `<R: ConcurrencyRuntime>` function with `R` bound to the runtime's type).
///
/// A built-in backend is a `Kind`, and every switch over the kinds names its type, so its
/// workloads run specialized, with no existential on their hot paths. A backend that another
/// package registers (`Backends.register`) is its type alone: generic code reaches it through the
/// opened existential and runs unspecialized, a cost the report's figures for it include (what
/// `bench fidelity` measures for the built-in ones; Backends.swift).
public struct Backend: Sendable, CustomStringConvertible {
    /// One case per built-in backend, in report order. Every switch over it is exhaustive, so a
    /// new built-in backend that is missing from one is a compile error, not a trap at run time.
    public enum Kind: CaseIterable, Sendable {
        case pthreadMutex, workStealing, fifoDispatch, libdispatch, libdispatchC, swiftConcurrency, nio, nioGlobal
    }

    public enum Origin: Sendable {
        case builtIn(Kind)
        case registered(any ConcurrencyRuntime.Type)
    }

    public let origin: Origin

    public init(_ kind: Kind) { origin = .builtIn(kind) }

    /// Another package's runtime; `Backends.register` checks its id against the others'.
    public init(registering runtime: any ConcurrencyRuntime.Type) { origin = .registered(runtime) }

    /// The built-in backend's kind; nil for a registered one.
    public var kind: Kind? {
        if case .builtIn(let kind) = origin { kind } else { nil }
    }

    public var runtime: any ConcurrencyRuntime.Type {
        switch origin {
        case .builtIn(.pthreadMutex): PThreadRuntime.self
        case .builtIn(.workStealing): StealingRuntime.self
        case .builtIn(.fifoDispatch): FIFODispatch.self
        case .builtIn(.libdispatch): DispatchRuntime.self
        case .builtIn(.libdispatchC): CDispatchRuntime.self
        case .builtIn(.swiftConcurrency): SwiftConcurrencyRuntime.self
        case .builtIn(.nio): NIORuntime.self
        case .builtIn(.nioGlobal): NIOGlobalRuntime.self
        case .registered(let runtime): runtime
        }
    }

    public var id: String { runtime.id }
    public var summary: String { runtime.summary }
    public var unsupported: [RuntimeBehaviour: String] { runtime.unsupported }
    public var description: String { id }
}

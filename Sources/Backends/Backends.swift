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
        Backend(DispatchRuntime.self),
        Backend(CDispatchRuntime.self),
        Backend(SwiftConcurrencyRuntime.self),
    ]

    public static var ids: [String] { all.map(\.id) }

    /// The backend with `id`, or nil.
    public static func named(_ id: String) -> Backend? { all.first { $0.id == id } }
}

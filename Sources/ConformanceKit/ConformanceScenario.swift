import RuntimeKit
import Testing

/// One behaviour every `ConcurrencyRuntime` must have, checked on a fresh runtime of the type
/// under test: a runtime's own Swift Testing tests call `check` with their runtime type.
///
/// A scenario that needs a behaviour the runtime declares in `unsupported` is cancelled with that
/// reason (Swift Testing counts it as skipped, not passed); one that does not finish within
/// `Conformance.deadline` is recorded as a deadlock naming the scenario and the runtime.
public struct ConformanceScenario: Sendable, CustomStringConvertible, CustomTestStringConvertible {
    public let family: ConformanceFamily
    /// What the scenario checks, in one sentence; unique among `Conformance.scenarios`.
    public let name: String
    /// The behaviours the scenario needs; a runtime that lacks one is not checked by it.
    public let requires: [RuntimeBehaviour]
    private let body: @Sendable (any ConcurrencyRuntime.Type) throws -> Void

    init(
        _ family: ConformanceFamily,
        _ name: String,
        requires: [RuntimeBehaviour] = [],
        _ body: @escaping @Sendable (any ConcurrencyRuntime.Type) throws -> Void
    ) {
        self.family = family
        self.name = name
        self.requires = requires
        self.body = body
    }

    /// Why the scenario does not apply to `runtime`: the first behaviour it needs that the
    /// runtime declares unsupported, with the runtime's reason; nil when it applies.
    public func reasonNotApplicable(to runtime: any ConcurrencyRuntime.Type) -> String? {
        let unsupported = runtime.unsupported
        return requires.lazy.compactMap { behaviour in
            unsupported[behaviour].map { "\(behaviour) unsupported: \($0)" }
        }.first
    }

    /// Runs the scenario on `runtime` on the calling thread, outside Swift Testing and with no
    /// deadline: for a process of its own that must prepare something process-wide first (a
    /// probe that installs a global executor). Throws what the scenario found wrong.
    public func run(on runtime: any ConcurrencyRuntime.Type) throws { try body(runtime) }

    public var description: String { "\(family): \(name)" }
    public var testDescription: String { name }

    /// Runs the scenario on new runtimes of type `runtime` (one worker per CPU), from a thread of
    /// its own so that Swift Testing's cooperative threads stay free. Throws what the scenario
    /// found wrong; `label` names the runtime in messages (its `id` by default).
    public func check(_ runtime: any ConcurrencyRuntime.Type, as label: String? = nil) async throws {
        let label = label ?? runtime.id
        if let reason = reasonNotApplicable(to: runtime) {
            let message = "not applicable: '\(name)' on \(label): \(reason)"
            // Swift Testing 6.3's console shows a cancelled case as passed: say why on a line
            // of its own, where a reader of the CI log sees it.
            print("⊘ skipped: \(message)")
            try Test.cancel(Comment(rawValue: message))
        }
        try await runScenario(name, on: label) { try body(runtime) }
    }
}

/// The scenarios come in families, one per part of the protocol.
public enum ConformanceFamily: String, Sendable, CaseIterable, CustomStringConvertible {
    case serialQueue = "serial queue"
    case async
    case apply
    case functionForms = "function forms"
    case group
    case semaphore
    case blocking = "blocking with every worker blocked or busy"
    case shutdown
    case executors = "Swift concurrency on the runtime's executors"

    public var description: String { rawValue }
}

import CaseCatalogue
import Backends
import Harness
import Results
import RuntimeKit

/// A workload whose cases differ by one `pattern` parameter, each pattern an operation on a
/// fresh runtime of the case's backend (spawn, group). It names its patterns and builds the
/// operation of one; reading the parameter, opening the backend and the not-given-a-backend error
/// are the same for all of them, here.
public protocol PatternWorkload: Workload {
    associatedtype Pattern: RawRepresentable, CaseIterable, Sendable where Pattern.RawValue == String
    /// How long an operation waits for its tasks before failing the case.
    var timeout: Duration { get }
    /// The operation of `pattern` on `runtime`, which it owns from now on (`finish()` shuts it
    /// down). Generic, so the tests can hand it a runtime that loses or repeats work.
    static func operation<R: ConcurrencyRuntime>(_ pattern: Pattern, on runtime: R, timeout: Duration)
        -> any MeasuredOperation
}

/// The parameter that names the pattern.
let patternParameter = ParameterName.pattern.rawValue

extension PatternWorkload {
    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let pattern: Pattern = try benchmarkCase.choice(patternParameter)
        return try benchmarkCase.requireBackend(backend).specialized(
            PatternOperation<Self>(pattern: pattern, timeout: timeout))
    }

    /// One case per pattern of `patterns`.
    static func parameterSets(_ patterns: [Pattern]) -> [[Parameter]] {
        patterns.map { [Parameter(patternParameter, $0.rawValue)] }
    }
}

/// `W`'s operation of one pattern on a runtime of the backend's concrete type.
struct PatternOperation<W: PatternWorkload>: RuntimeTypeConsumer {
    let pattern: W.Pattern
    let timeout: Duration

    func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> any MeasuredOperation {
        W.operation(pattern, on: R(workers: 0), timeout: timeout)
    }
}

import CaseCatalogue
import Backends
import CBodyCost
import Harness
import Results
import RuntimeKit
import SystemRuntimes

/// `direct`: the suite's own operations written directly against each runtime, in a plain loop,
/// so `bench fidelity` and the report can put what the suite measures next to what the runtime
/// itself costs (shared/DESIGN.md, "Fidelity"). Three layers, by backend:
///
/// | backend | the reference is |
/// | --- | --- |
/// | `libdispatch-c`, and `none` for pthreads and POSIX semaphores | C calling the runtime (`Benchmarks/CReferences`) |
/// | `libdispatch` | idiomatic Swift over the `Dispatch` overlay: `DispatchQueue.sync { }`, `concurrentPerform` |
/// | our own backends | the backend's concrete type called in a loop, not through a workload's closures |
/// | every backend, for swift-async | plain async Swift on the backend's executors (`AsyncDirectOperation`) |
///
/// Each operation is the one of the suite case that `FidelityPairs` names as its counterpart,
/// in the same process shape (an idle second thread where that case has one), and checks its own
/// result the same way: cheaply after every run, so a fast wrong reference cannot look good.
public struct Direct: Workload {
    public init() {}

    public let name = WorkloadName.direct.rawValue
    public let summary =
        "the suite's operations written directly against each runtime (C, idiomatic Swift, "
        + "concrete types): fidelity references"
    public let operation = "one operation of the suite case it references (one whole loop for apply)"
    public let usesBackend = true

    public typealias Operation = DirectOperation

    static let operationName = ParameterName.operation.rawValue

    public func usesBackend(for parameters: [Parameter]) -> Bool {
        guard let text = parameters.first(where: { $0.name == Self.operationName })?.value,
            let operation = Operation(rawValue: text)
        else {
            return true  // prepare refuses it with the reason
        }
        return operation.needsBackend
    }

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        func sets(_ operations: [Operation]) -> [[Parameter]] {
            operations.map { [Parameter(Self.operationName, $0.rawValue)] }
        }
        switch suite {
        case .smoke:
            // The allocation-free primitives CI checks allocations on, and one apply.
            // and swift-async's smoke case, an actor call.
            return sets([.sync, .semaphore, .actorCall]) + ApplyStride().parameterSets(for: .smoke).map(Self.apply)
        case .quick:
            // What the claims' runtime layer needs (dispatch_sync_f against pthread_mutex_lock),
            // with Swift's Mutex beside them: the quick suite must stay within 3 minutes, which
            // more references would overrun. `bench fidelity` runs the full set.
            return sets([.pthreadMutex, .swiftMutex, .sync])
        case .full:
            // Every operation, and the quick suite's loops of the empty and 1 µs bodies, stride 1
            // and automatic: the full suite's stride curve has its serial loop and best stride
            // beside it, and a reference per stride would add 5 × 24 cases.
            let swept = Set(ApplyStride.quickSweptBodies.map(\.parameter))
            return sets(Operation.allCases.filter { $0 != .apply })
                + ApplyStride().parameterSets(for: .quick).filter { swept.isDisjoint(with: $0) }.map(Self.apply)
        }
    }

    static func apply(_ parameters: [Parameter]) -> [Parameter] {
        [Parameter(operationName, Operation.apply.rawValue)] + parameters
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let operation: Operation = try benchmarkCase.choice(Self.operationName)
        var loop: DirectLoop?
        if operation == .apply {
            let body = try BodyCost(parameterOf: benchmarkCase)
            let stride = try StrideChoice(parameterOf: benchmarkCase)
            let iterations = try ApplyStride.iterations(parameterOf: benchmarkCase)
            loop = DirectLoop(iterations: iterations, stride: stride, spinRounds: body.spinRoundsPerIndex)
        }
        if operation == .swiftMutex { return SwiftMutexDirectOperation() }
        guard operation.needsBackend else { return try CDirectOperation(operation, loop: nil) }
        guard let backend else {
            throw WorkloadError.badParameter(
                "\(name) with \(Self.operationName)=\(operation.rawValue) runs on a backend; none was given")
        }
        if operation.isAsync {
            struct Make: RuntimeTypeConsumer {
                let operation: Operation
                func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> any MeasuredOperation {
                    AsyncDirectOperation(operation, runtime: R(workers: 0))
                }
            }
            return try backend.specialized(Make(operation: operation))
        }
        // Exhaustive over the kinds, so a new built-in backend must say which reference it gets;
        // a registered one gets the concrete type's, as our own backends do.
        switch backend.kind {
        case .libdispatchC: return try CDirectOperation(operation, loop: loop)
        case .libdispatch: return DispatchDirectOperation(operation, loop: loop)
        case .pthreadMutex, .workStealing, .fifoDispatch, .swiftConcurrency, .nio, .nioGlobal, nil:
            struct Make: RuntimeTypeConsumer {
                let operation: Operation, loop: DirectLoop?
                func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) throws -> any MeasuredOperation {
                    try ConcreteDirectOperation(operation, runtime: R(workers: 0), loop: loop)
                }
            }
            return try backend.specialized(Make(operation: operation, loop: loop))
        }
    }
}

/// An apply reference's loop: iterations, stride (resolved per runtime width) and body cost.
struct DirectLoop: Sendable {
    let iterations: Int
    let stride: StrideChoice
    let spinRounds: rb_spin_rounds

    func stride(workers: Int) -> Int {
        stride.policy(iterations: iterations, workers: workers).iterationsPerPiece(
            iterations: iterations, workers: workers)
    }
}

import Backends
import CBodyCost
import Harness

/// `apply-serial`: the plain loop `apply-stride` is measured against: the same bodies (spin plus
/// the index's counter) over the same iterations, on the calling thread, no runtime. Speed-up of
/// a backend = this case's ns per operation / the apply-stride case's with the same body and
/// iterations.
public struct ApplySerial: Workload {
    public init() {}

    public let name = "apply-serial"
    public let summary = "the serial loop apply-stride is compared with: the same bodies and iterations on one thread"
    public let operation = "one loop of N iterations (N = the iterations parameter)"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        ApplyStride.bodies(for: suite).map { body in
            let iterations = suite == .smoke ? ApplyStride.smokeIterations : ApplyStride.iterations(for: body)
            return [body.parameter, Parameter(ApplyStride.iterationsName, "\(iterations)")]
        }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let body = try BodyCost(parameterOf: benchmarkCase)
        let iterations = try ApplyStride.iterations(parameterOf: benchmarkCase)
        return SerialLoopOperation(spinRounds: body.spinRounds, iterations: iterations)
    }
}

/// `count` serial loops, every index counted like `ApplyOperation` counts it.
public final class SerialLoopOperation: MeasuredOperation {
    let spinRounds: UInt64
    let ledger: IterationLedger

    public init(spinRounds: UInt64, iterations: Int) {
        self.spinRounds = spinRounds
        ledger = IterationLedger(iterations: iterations)
    }

    public func run(_ count: Int) throws {
        let tally = ledger.tally, rounds = spinRounds
        for _ in 0..<count {
            for index in 0..<ledger.iterations {
                rb_spin(rounds)
                tally.record(index)
            }
        }
        ledger.completed(count)
    }

    public func finish() throws {
        try ledger.verify(loop: "serial loop of \(ledger.iterations) iterations")
    }
}

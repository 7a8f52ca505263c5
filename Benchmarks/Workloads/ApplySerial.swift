import CaseCatalogue
import Backends
import CBodyCost
import Harness
import Results

/// `apply-serial`: the plain loop `apply-stride` is measured against: the same bodies (spin, and
/// the loop's piece tally) over the same iterations, on the calling thread, no runtime. Speed-up of
/// a backend = this case's ns per operation / the apply-stride case's with the same body and
/// iterations.
public struct ApplySerial: Workload {
    public init() {}

    public let name = WorkloadName.applySerial.rawValue
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
        return SerialLoopOperation(spinRounds: body.spinRoundsPerIndex, iterations: iterations)
    }
}

/// `count` serial loops, each one piece of every index, the same C piece as `ApplyOperation`'s.
public final class SerialLoopOperation: MeasuredOperation {
    let body: SpinPieces

    public init(spinRounds: rb_spin_rounds, iterations: Int) {
        body = SpinPieces(spinRounds: spinRounds, iterations: iterations)
    }

    public func run(_ count: Int) throws {
        let iterations = body.tally.iterations
        for _ in 0..<count { body.run(0..<iterations) }
        try body.tally.completed(count, loop: "serial loop of \(iterations) iterations")
    }

    public func finish() throws {}
}

import CaseCatalogue
import Backends
import CBodyCost
import CReferences
import Harness
import Results
import RuntimeKit

/// `apply-stride`: one `runtime.apply` over `iterations` iterations whose body spins for `body`,
/// cut into pieces of `stride` iterations. Tests the guide's claim that a small body does not
/// pay for the scheduling of its own iteration, and that striding fixes that.
///
/// One operation is one whole apply, not one iteration: the harness times `run(count)` and
/// divides by `count`, and an apply cannot be cut into a batch of single iterations without
/// changing what it is (a loop of `iterations` is scheduled as one loop). The case id carries
/// `iterations`, so ns per iteration is ns per operation / iterations; `apply-serial` runs the
/// same bodies and iterations as a plain loop, for the speed-up.
///
/// Every piece records itself in a `PieceTally` checked after every run (`apply-serial` does the
/// same, so speed-ups compare like with like), and `finish()` runs one more loop, untimed, that
/// fails the case if any index did not run exactly once (`IterationLedger`).
public struct ApplyStride: Workload {
    public init() {}

    public let name = WorkloadName.applyStride.rawValue
    /// The figure an operation reports: the iterations one piece ran, on average (`figures`).
    static let iterationsPerPiece = "iterations_per_piece"
    public let summary =
        "apply over N iterations with a spin body, stride 1…N and automatic (ns per iteration = ns / N)"
    public let operation = "one apply of N iterations (N = the iterations parameter)"
    public let usesBackend = true

    static let strideName = ParameterName.stride.rawValue
    static let iterationsName = ParameterName.iterations.rawValue

    /// Iterations for a body cost: as many as keep the serial loop near 10 ms (never more than
    /// 100,000, whose counters fit in L2), so the largest bodies still give a sample several
    /// applies, and the smallest have enough iterations that starting the loop is not all there is.
    public static func iterations(for body: BodyCost) -> Int {
        body.nanoseconds <= 100 ? 100_000 : max(1, 10_000_000 / body.nanoseconds)
    }

    /// The body costs of a suite (shared with `apply-serial`, so each has its serial baseline).
    static func bodies(for suite: Suite) -> [BodyCost] {
        switch suite {
        case .smoke: [BodyCost(nanoseconds: 10)]
        case .quick: [0, 10, 100, 1_000].map(BodyCost.init(nanoseconds:))
        case .full: BodyCost.all
        }
    }

    /// The quick suite's bodies that get a few strides, enough to name the best one ("what stride
    /// for a 100 ns body?"): small bodies, where the stride decides. The empty and 1 µs bodies
    /// run stride 1 and the automatic stride only: the claims and the task-group question need
    /// no more of them.
    static let quickSweptBodies = [10, 100].map(BodyCost.init(nanoseconds:))

    /// The quick suite's strides for a swept body: a factor of 8 apart, from one iteration per
    /// piece to a few hundred pieces per worker.
    static let quickSweep: [StrideChoice] = [.fixed(1), .fixed(8), .fixed(64), .fixed(512), .automatic]

    /// The smoke suite's loop: small enough that a sanitized build runs it in milliseconds.
    static let smokeIterations = 1_000

    /// Strides of a suite for a loop of `iterations`. The full suite steps by powers of 4, not 2:
    /// the curve keeps its shape at half the cases (every case runs on 5 backends × 2 allocators),
    /// up to a quarter of the loop, then one piece per worker and the automatic stride.
    static func strides(for suite: Suite, body: BodyCost, iterations: Int) -> [StrideChoice] {
        switch suite {
        case .smoke: return [.automatic]
        case .quick: return quickSweptBodies.contains(body) ? quickSweep : [.fixed(1), .automatic]
        case .full:
            let fixed = Swift.sequence(first: 1) { $0 * 4 }.prefix { $0 <= max(1, iterations / 4) }
            return fixed.map(StrideChoice.fixed) + [.perWorker, .automatic]
        }
    }

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        Self.bodies(for: suite).flatMap { body in
            let iterations = suite == .smoke ? Self.smokeIterations : Self.iterations(for: body)
            return Self.strides(for: suite, body: body, iterations: iterations).map { stride in
                [
                    body.parameter, Parameter(Self.strideName, stride.description),
                    Parameter(Self.iterationsName, "\(iterations)"),
                ]
            }
        }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let body = try BodyCost(parameterOf: benchmarkCase)
        let stride = try StrideChoice(parameterOf: benchmarkCase)
        let iterations = try Self.iterations(parameterOf: benchmarkCase)
        guard let backend else { throw WorkloadError.badParameter("\(name) runs on a backend; none was given") }
        let rounds = body.spinRoundsPerIndex  // calibrate before the runtime starts threads that could disturb it
        struct Make: RuntimeTypeConsumer {
            let rounds: rb_spin_rounds, stride: StrideChoice, iterations: Int
            func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> any MeasuredOperation {
                ApplyStride.operation(on: R(workers: 0), spinRounds: rounds, stride: stride, iterations: iterations)
            }
        }
        return try backend.specialized(Make(rounds: rounds, stride: stride, iterations: iterations))
    }

    /// The operation on `runtime`, which it owns from now on (`finish()` shuts it down). Generic,
    /// so it can be given any runtime, including the misbehaving ones of the tests.
    public static func operation<R: ConcurrencyRuntime>(
        on runtime: R, spinRounds: rb_spin_rounds, stride: StrideChoice, iterations: Int
    ) -> any MeasuredOperation {
        ApplyOperation(
            runtime: runtime, spinRounds: spinRounds,
            stride: stride.policy(iterations: iterations, workers: runtime.workers),
            iterations: iterations)
    }

    /// Reads the `iterations` parameter (a whole number ≥ 1).
    static func iterations(parameterOf benchmarkCase: BenchmarkCase) throws(WorkloadError) -> Int {
        let text = benchmarkCase.parameter(iterationsName)
        guard let text, let iterations = Int(text), iterations >= 1 else {
            throw .badParameter(
                "\(benchmarkCase.workload) needs \(iterationsName)=<whole number ≥ 1>, "
                    + "got \(text.map { "'\($0)'" } ?? "none")")
        }
        return iterations
    }
}

/// The `stride` parameter: `1`, `2`, … (fixed), `auto` (the backend's `.automatic`) or
/// `per-worker` (one piece per worker, N / workers rounded up). `per-worker` is resolved in the
/// child from the runtime's own width, so a case id means the same on every machine.
public enum StrideChoice: Sendable, Hashable, CustomStringConvertible {
    case fixed(Int)
    case automatic
    case perWorker

    public init(parsing text: String) throws(WorkloadError) {
        switch text {
        case "auto": self = .automatic
        case "per-worker": self = .perWorker
        default:
            guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(text), n >= 1 else {
                throw .badParameter("stride must be a whole number ≥ 1, 'auto' or 'per-worker', got '\(text)'")
            }
            self = .fixed(n)
        }
    }

    init(parameterOf benchmarkCase: BenchmarkCase) throws(WorkloadError) {
        guard let text = benchmarkCase.parameter(ApplyStride.strideName) else {
            throw .badParameter("\(benchmarkCase.workload) needs stride=<n ≥ 1>, auto or per-worker, got none")
        }
        try self.init(parsing: text)
    }

    public func policy(iterations: Int, workers: Int) -> StridePolicy {
        switch self {
        case .fixed(let n): .fixed(n)
        case .automatic: .automatic
        case .perWorker: .fixed(max(1, (iterations + max(1, workers) - 1) / max(1, workers)))
        }
    }

    public var description: String {
        switch self {
        case .fixed(let n): "\(n)"
        case .automatic: "auto"
        case .perWorker: "per-worker"
        }
    }
}

/// `count` applies on one runtime. Each piece loops over its indices with the body inlined and
/// records itself once in a `PieceTally`, which every run checks; one more loop, outside the timed
/// region, is checked index by index against an `IterationLedger` in `finish()`.
///
/// A counter per index in the timed loops (the ledger's) would share cache lines between CPUs at
/// small strides and be most of the empty body's figure (Benchmarks/README.md, "apply-stride").
final class ApplyOperation<R: ConcurrencyRuntime>: MeasuredOperation {
    let runtime: R
    let stride: StridePolicy
    let body: SpinPieces

    init(runtime: R, spinRounds: rb_spin_rounds, stride: StridePolicy, iterations: Int) {
        self.runtime = runtime
        self.stride = stride
        body = SpinPieces(spinRounds: spinRounds, iterations: iterations)
    }

    private var description: String { "apply of \(body.tally.iterations) iterations, stride \(stride), on \(R.id)" }

    /// The C piece function form (`apply(iterations:stride:context:_:)`): libdispatch-c hands it to
    /// `dispatch_apply_f` with no closure per piece; the other backends call it from their closure.
    /// `rb_spin_piece` is named here, not passed in a variable: once the default form is inlined
    /// the compiler sees which function runs and calls it directly from the backend's closure (a
    /// stored function value would leave an indirect call in every piece; Benchmarks/README.md,
    /// "apply-stride").
    func run(_ count: Int) throws {
        let context = body.context, iterations = body.tally.iterations
        for _ in 0..<count {
            runtime.apply(iterations: iterations, stride: stride, context: context, rb_spin_piece)
        }
        try body.tally.completed(count, loop: description)
    }

    /// Loops and body calls before the first sample, so `iterations_per_piece` covers the samples.
    private var before = (loops: 0, pieces: 0)

    func beginSamples() {
        before = (body.tally.loops, body.tally.pieces)
    }

    /// The mean iterations per body call over the sampled loops: the stride the runtime really
    /// used, which for the automatic stride is its own choice (report.md shows it beside the best
    /// fixed stride).
    var workloadMetrics: [String: WorkloadMetric] {
        let loops = body.tally.loops - before.loops, pieces = body.tally.pieces - before.pieces
        guard loops > 0, pieces > 0 else { return [:] }
        return [
            ApplyStride.iterationsPerPiece: WorkloadMetric(
                Double(loops * body.tally.iterations) / Double(pieces), unit: .iterations)
        ]
    }

    func finish() throws {
        defer { runtime.shutdown() }
        let ledger = IterationLedger(iterations: body.tally.iterations)
        let exact = ledger.tally
        runtime.apply(
            iterations: body.tally.iterations, stride: stride,
            pieces: { piece in
                for index in piece { exact.record(index) }
            })
        ledger.completed(1)
        try ledger.verify(loop: description)
    }
}

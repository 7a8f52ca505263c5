import CaseCatalogue
import Claims
import Results

/// The apply-stride family's derived figures: per body cost and backend, ns per iteration at each
/// stride, the best stride, its speed-up over stride 1, the automatic stride (its figure, the
/// stride it chose and how far it is from the best fixed one), and the plain serial loop
/// (apply-serial, same body and iterations) that a parallel loop must beat. System allocator.
///
/// One apply is one operation, so ns per iteration = ns per operation / `iterations`. The
/// `per-worker` stride is placed at the stride the loop really used: the workload's own
/// `iterations_per_piece`, counted in the loop, so no worker count is guessed here.
struct StrideFigures {
    static let workload = WorkloadName.applyStride.rawValue
    static let serialWorkload = WorkloadName.applySerial.rawValue
    static let strideParameter = ParameterName.stride.rawValue
    static let iterationsParameter = ParameterName.iterations.rawValue
    static let automatic = "auto"
    static let perWorker = "per-worker"
    /// The apply workload's own figure: mean iterations per body call, i.e. the stride used.
    static let iterationsPerPiece = "iterations_per_piece"

    struct Point {
        let stride: Int
        let label: String
        let nanosecondsPerIteration: Double
        /// The case's figure and intervals (one value per process), for telling points apart.
        let estimate: CaseEstimate?
        /// The case, as a chart's point names it.
        let caseID: String
    }

    /// One backend at one body cost (one set of the other parameters).
    struct Curve {
        let backend: String
        let points: [Point]
        let automatic: Double?
        /// The stride the backend chose for `auto` (mean iterations per body call, measured).
        let automaticStride: Double?
        /// The automatic stride's case estimate.
        let automaticEstimate: CaseEstimate?
        /// The automatic stride's case, as a chart's point names it.
        let automaticCaseID: String?

        var best: Point? { points.min { $0.nanosecondsPerIteration < $1.nanosecondsPerIteration } }
        var strideOne: Point? { points.first { $0.stride == 1 } }

        /// Whether the automatic stride is clearly slower or faster than the best fixed one, by the
        /// rule the claims use (`Faster`: comparison intervals that do not overlap), or a tie. The
        /// best is the lowest of several figures, each with its processes' noise, so a ratio alone
        /// reads a few percent against the automatic stride even where a repeat run would not.
        var automaticAgainstBest: Faster? {
            guard let best = best?.estimate, let automaticEstimate else { return nil }
            return Faster(best, automaticEstimate)
        }
    }

    /// Every curve of one setting of the other parameters ("body=10ns, iterations=100000").
    struct Setting {
        let parameters: [Parameter]
        let curves: [Curve]
        let serialLoop: Double?

        var title: String { parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ", ") }
        /// Whether some backend ran more than one fixed stride: only then is there a best stride
        /// to name, or a curve to draw (the quick suite runs stride 1 and the automatic one).
        var isSweep: Bool { curves.contains { $0.points.count >= 2 } }
        var fileStem: String { "stride-" + parameters.map { "\($0.name)-\($0.value)" }.joined(separator: "-") }
    }

    let settings: [Setting]

    init(_ cases: [MeasuredCase]) {
        let system = cases.filter { $0.benchmarkCase.allocator == .system }
        var serial: [[Parameter]: Double] = [:]
        for measured in system where measured.benchmarkCase.workload == Self.serialWorkload {
            if let perIteration = Self.perIteration(measured) {
                serial[measured.benchmarkCase.parameters] = perIteration
            }
        }
        var order: [[Parameter]] = []
        var bySetting: [[Parameter]: [MeasuredCase]] = [:]
        for measured in system where measured.benchmarkCase.workload == Self.workload {
            let key = measured.benchmarkCase.parameters.filter { $0.name != Self.strideParameter }
            if bySetting[key] == nil { order.append(key) }
            bySetting[key, default: []].append(measured)
        }
        settings = order.map { key in
            var backends: [String] = []
            var byBackend: [String: [MeasuredCase]] = [:]
            for measured in bySetting[key]! {
                if byBackend[measured.benchmarkCase.backend] == nil { backends.append(measured.benchmarkCase.backend) }
                byBackend[measured.benchmarkCase.backend, default: []].append(measured)
            }
            let curves = backends.map { backend in
                let members = byBackend[backend]!
                let points = members.compactMap(Self.point).sorted { $0.stride < $1.stride }
                let automaticCase = members.first { $0.benchmarkCase.parameter(Self.strideParameter) == Self.automatic }
                return Curve(
                    backend: backend, points: points, automatic: automaticCase.flatMap(Self.perIteration),
                    automaticStride: automaticCase?.workloadMetric(Self.iterationsPerPiece)?.value,
                    automaticEstimate: automaticCase?.estimate, automaticCaseID: automaticCase?.benchmarkCase.id)
            }
            // The serial loop with the same parameters, whichever of them it declares.
            let baseline = serial.first { candidate in candidate.key.allSatisfy { key.contains($0) } }?.value
            return Setting(parameters: key, curves: curves, serialLoop: baseline)
        }
    }

    static func perIteration(_ measured: MeasuredCase) -> Double? {
        guard let median = measured.estimate?.value,
            let iterations = measured.benchmarkCase.parameter(iterationsParameter).flatMap(Int.init), iterations > 0
        else { return nil }
        return median / Double(iterations)
    }

    /// A numeric stride's point; `per-worker` at the stride the loop used (nil when the workload
    /// did not say); nil for `auto`.
    static func point(_ measured: MeasuredCase) -> Point? {
        guard let label = measured.benchmarkCase.parameter(strideParameter), let perIteration = perIteration(measured)
        else { return nil }
        if let stride = Int(label) {
            return Point(
                stride: stride, label: label, nanosecondsPerIteration: perIteration, estimate: measured.estimate,
                caseID: measured.benchmarkCase.id)
        }
        guard label == perWorker, let used = measured.workloadMetric(iterationsPerPiece)?.value, used >= 1 else {
            return nil
        }
        let stride = Int(used.rounded())
        return Point(
            stride: stride, label: "\(perWorker) (\(stride))", nanosecondsPerIteration: perIteration,
            estimate: measured.estimate, caseID: measured.benchmarkCase.id)
    }
}

import CaseCatalogue
import Backends
import CBodyCost
import Harness
import Results
#if canImport(Glibc)
import Glibc
#endif

/// `spin`: the calibration workload: one operation is `rounds` serialized spin rounds, on the
/// calling thread, no runtime. It shows what the harness itself adds (rounds=0 is the empty
/// operation: the harness overhead per operation) and what a body cost of N rounds is worth in
/// nanoseconds on this machine, which the stride workloads convert body costs with.
public struct Spin: Workload {
    public init() {}

    public let name = WorkloadName.spin.rawValue
    public let summary = "calibration: a serialized spin of N rounds on the calling thread (0 = harness overhead)"
    public let operation = "one spin of N rounds"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        let rounds: [Int] =
            switch suite {
            case .smoke: [0, 100]
            case .quick: [0, 10, 100, 1_000]
            case .full: [0, 1, 10, 100, 1_000, 10_000]
            }
        return rounds.map { [Parameter("rounds", "\($0)")] }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        guard let text = benchmarkCase.parameter("rounds"), let rounds = UInt64(text) else {
            throw WorkloadError.badParameter(
                "spin needs rounds=<non-negative integer>, got \(benchmarkCase.parameter("rounds") ?? "none")")
        }
        guard let text = getenv(Self.slowdownVariable).map({ String(cString: $0) }) else {
            return SpinOperation(rounds: rounds)
        }
        guard let factor = Double(text), factor >= 1, factor <= 100 else {
            throw WorkloadError.badParameter("\(Self.slowdownVariable) must be a factor from 1 to 100, got '\(text)'")
        }
        return SpinOperation(rounds: UInt64((Double(rounds) * factor).rounded()), injectedSlowdown: factor)
    }

    /// Set in the environment of a build's children (a wrapper script around `bench`), it makes
    /// every spin that many times longer: how the regression gate's detection rate is measured
    /// (tools/gate-calibration.sh). The record says so (workload metric "injected-slowdown").
    public static let slowdownVariable = "RUNTIMEBENCH_SPIN_SLOWDOWN"
}

final class SpinOperation: MeasuredOperation {
    let rounds: UInt64
    let injectedSlowdown: Double?
    private(set) var performed = 0

    init(rounds: UInt64, injectedSlowdown: Double? = nil) {
        self.rounds = rounds
        self.injectedSlowdown = injectedSlowdown
    }

    var workloadMetrics: [String: WorkloadMetric] {
        injectedSlowdown.map { ["injected-slowdown": WorkloadMetric($0, unit: .factor)] } ?? [:]
    }

    func run(_ count: Int) throws {
        for _ in 0..<count { rb_spin(rounds) }
        performed += count
    }

    func finish() throws {
        guard performed > 0 else { throw WorkloadError.verificationFailed("no spin ran") }
    }
}

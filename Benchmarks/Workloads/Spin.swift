import Backends
import CBodyCost
import Harness

/// `spin`: the calibration workload: one operation is `rounds` serialized spin rounds, on the
/// calling thread, no runtime. It shows what the harness itself adds (rounds=0 is the empty
/// operation: the harness overhead per operation) and what a body cost of N rounds is worth in
/// nanoseconds on this machine, which the stride workloads convert body costs with.
public struct Spin: Workload {
    public init() {}

    public let name = "spin"
    public let summary = "calibration: a serialized spin of N rounds on the calling thread (0 = harness overhead)"
    public let operation = "one spin of N rounds"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        let rounds: [Int] = switch suite {
        case .smoke: [0, 100]
        case .quick: [0, 10, 100, 1_000]
        case .full: [0, 1, 10, 100, 1_000, 10_000]
        }
        return rounds.map { [Parameter("rounds", "\($0)")] }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        guard let text = benchmarkCase.parameter("rounds"), let rounds = UInt64(text) else {
            throw WorkloadError.badParameter("spin needs rounds=<non-negative integer>, got \(benchmarkCase.parameter("rounds") ?? "none")")
        }
        return SpinOperation(rounds: rounds)
    }
}

final class SpinOperation: MeasuredOperation {
    let rounds: UInt64
    private(set) var performed = 0

    init(rounds: UInt64) { self.rounds = rounds }

    func run(_ count: Int) throws {
        for _ in 0..<count { rb_spin(rounds) }
        performed += count
    }

    func finish() throws {
        guard performed > 0 else { throw WorkloadError.verificationFailed("no spin ran") }
    }
}

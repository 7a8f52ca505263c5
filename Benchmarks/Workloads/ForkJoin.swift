import Backends
import Harness
import StealingRuntime

/// `fork-join`: fib(n) with a join at every call (1,346,268 joins for n = 30): what a join costs,
/// and why work stealing exists. One operation is one whole fib(n); ns per join is that divided
/// by `joins(n)`. Needs `join`, which only the work-stealing backend offers; the group-based
/// version for the other backends belongs to the fork-join family of the workloads issue.
public struct ForkJoin: Workload {
    public init() {}

    public let name = "fork-join"
    public let summary = "fib(n) with a join at every call (work-stealing join)"
    public let operation = "one fib(n), i.e. joins(n) joins"
    public let usesBackend = true

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        switch suite {
        case .smoke: [[Parameter("fib", "20")]]
        case .quick, .full: [[Parameter("fib", "30")]]
        }
    }

    /// Calls with n ≥ 2 in a recursive fib(n), each of which joins: fib(n + 1) − 1.
    public static func joins(_ n: Int) -> Int {
        var (a, b) = (0, 1)
        for _ in 0..<(n + 1) { (a, b) = (b, a + b) }
        return a - 1
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        guard let text = benchmarkCase.parameter("fib"), let n = Int(text), (2...40).contains(n) else {
            throw WorkloadError.badParameter("fork-join needs fib=<2...40>, got \(benchmarkCase.parameter("fib") ?? "none")")
        }
        guard backend?.id == StealingRuntime.id else {
            throw WorkloadError.notApplicable("join is offered by the work-stealing backend only")
        }
        return FibOperation(n: n, runtime: StealingRuntime(workers: 0))
    }
}

final class FibOperation: MeasuredOperation {
    let n: Int
    let runtime: StealingRuntime
    private var wrong: Int?

    init(n: Int, runtime: StealingRuntime) {
        self.n = n
        self.runtime = runtime
    }

    func run(_ count: Int) throws {
        let expected = Self.sequentialFib(n)
        for _ in 0..<count {
            let value = fib(n)
            if value != expected { wrong = value }
        }
    }

    func finish() throws {
        runtime.shutdown()
        if let wrong { throw WorkloadError.verificationFailed("fib(\(n)) gave \(wrong), expected \(Self.sequentialFib(n))") }
    }

    private func fib(_ n: Int) -> Int {
        if n < 2 { return n }
        let (a, b) = runtime.join({ self.fib(n - 1) }, { self.fib(n - 2) })
        return a + b
    }

    static func sequentialFib(_ n: Int) -> Int {
        var (a, b) = (0, 1)
        for _ in 0..<n { (a, b) = (b, a + b) }
        return a
    }
}

import Backends
import Harness
import StealingRuntime

/// `fork-join`: fib(n) with a join at every call (1,346,268 joins for n = 30): what a join costs,
/// and why work stealing exists. One operation is one whole fib(n); ns per join is that divided
/// by `joins(n)`. Needs `join`, which only the work-stealing backend offers; the group-based
/// version for the other backends belongs to the fork-join family of the workloads issue.
///
/// `form=closure` joins two closures (Swift makes the right one escapable for a thief: two small
/// allocations per join); `form=task` passes the right half as a `JoinTask` value (none). The
/// difference is the price of the closure form. `split=eager` makes every right half stealable
/// (rayon); `split=lazy` only while the worker's deque is empty (`JoinSplitting.lazy`), so most
/// joins deep in the recursion are two plain calls.
public struct ForkJoin: Workload {
    public init() {}

    public let name = "fork-join"
    public let summary = "fib(n) with a join at every call (work-stealing join)"
    public let operation = "one fib(n), i.e. joins(n) joins"
    public let usesBackend = true

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        switch suite {
        case .smoke: [[Parameter("fib", "20"), Parameter("form", "task"), Parameter("split", "eager")]]
        case .quick: Self.variants.map { [Parameter("fib", "30"), Parameter("form", $0.form), Parameter("split", $0.split)] }
        case .full:
            // workers=1: the cost of a join with nobody to steal (pure overhead); the default pool
            // (one worker per CPU) adds stealing and its cache traffic.
            Self.variants.flatMap { variant in
                ["0", "1"].map {
                    [Parameter("fib", "30"), Parameter("form", variant.form), Parameter("split", variant.split), Parameter("workers", $0)]
                }
            }
        }
    }

    /// rayon's join (task and closure forms), and lazy splitting with the task form.
    static let variants: [(form: String, split: String)] = [("task", "eager"), ("task", "lazy"), ("closure", "eager")]

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
        let form = benchmarkCase.parameter("form") ?? "task"
        guard let closures = ["closure": true, "task": false][form] else {
            throw WorkloadError.badParameter("fork-join needs form=closure or form=task, got \(form)")
        }
        let workersText = benchmarkCase.parameter("workers") ?? "0"
        guard let workers = Int(workersText), workers >= 0 else {
            throw WorkloadError.badParameter("fork-join needs workers=<count ≥ 0> (0: one per CPU), got \(workersText)")
        }
        let split = benchmarkCase.parameter("split") ?? "eager"
        guard let splitting = ["eager": JoinSplitting.eager, "lazy": .lazy][split] else {
            throw WorkloadError.badParameter("fork-join needs split=eager or split=lazy, got \(split)")
        }
        guard backend?.id == StealingRuntime.id else {
            throw WorkloadError.notApplicable("join is offered by the work-stealing backend only")
        }
        return FibOperation(n: n, closures: closures, runtime: StealingRuntime(workers: workers, joinSplitting: splitting))
    }
}

final class FibOperation: MeasuredOperation {
    let n: Int
    let closures: Bool
    let runtime: StealingRuntime
    private var wrong: Int?

    init(n: Int, closures: Bool, runtime: StealingRuntime) {
        self.n = n
        self.closures = closures
        self.runtime = runtime
    }

    func run(_ count: Int) throws {
        let expected = Self.sequentialFib(n)
        for _ in 0..<count {
            let shared = Unmanaged.passUnretained(runtime)
            let value = closures ? Self.fib(n, on: shared) : FibTask(n: n, runtime: shared).run()
            if value != expected { wrong = value }
        }
    }

    func finish() throws {
        runtime.shutdown()
        if let wrong { throw WorkloadError.verificationFailed("fib(\(n)) gave \(wrong), expected \(Self.sequentialFib(n))") }
    }

    /// The closure form. Like `FibTask`, it captures nothing shared that needs retaining, so the
    /// difference between the forms is the closure machinery, not reference-count traffic.
    static func fib(_ n: Int, on runtime: Unmanaged<StealingRuntime>) -> Int {
        if n < 2 { return n }
        let (a, b) = runtime._withUnsafeGuaranteedRef { $0.join({ fib(n - 1, on: runtime) }, { fib(n - 2, on: runtime) }) }
        return a + b
    }

    static func sequentialFib(_ n: Int) -> Int {
        var (a, b) = (0, 1)
        for _ in 0..<n { (a, b) = (b, a + b) }
        return a
    }
}

/// fib(n) as a `JoinTask`: the right half of each join is a value in the joiner's frame.
/// The runtime is held unretained and used as a guaranteed reference: every worker runs fib, and
/// a retain and release of the shared runtime per call would bounce its reference count between
/// cores (that alone cost more than the join).
struct FibTask: JoinTask {
    let n: Int
    let runtime: Unmanaged<StealingRuntime>  // outlives every fib run on it

    func run() -> Int {
        if n < 2 { return n }
        let (a, b) = runtime._withUnsafeGuaranteedRef { runtime in
            runtime.join({ FibTask(n: n - 1, runtime: self.runtime).run() }, FibTask(n: n - 2, runtime: self.runtime))
        }
        return a + b
    }
}

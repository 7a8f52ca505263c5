import CaseCatalogue
import Backends
import Harness
import Results
import RuntimeKit

/// `fork-join`: divide and conquer, two problems, two mechanisms:
///
/// | problem | one operation |
/// | --- | --- |
/// | `fib=<n>` | one fib(n) (1,346,268 calls that split for n = 30) |
/// | `tree=<depth>` | the sum of a perfect binary tree of 2^depth − 1 heap nodes (`TreeNode`) |
///
/// - form `task`: work-stealing `join`, the right half a `JoinTask` value (no allocation);
///   backends: work-stealing
/// - form `closure`: `join` of two closures (one small allocation per join: the context that makes
///   the right half callable by a thief); backends: work-stealing
/// - form `group`: every split submits both halves with `async(group:)` into one group
///   (`GroupForkJoin`); backends: every backend
/// - form `async-let`: every split makes its left half an `async let` child on the backend's task
///   executor (`AsyncLetForkJoin`); fib only; backends: every backend
///
/// What a join costs, what a task costs, and why work stealing exists. `cutoff=<k>` solves
/// subproblems of size ≤ k (fib's n, the tree's depth) sequentially; 1, the default, splits
/// everything. `split=eager` makes every right half of a join stealable (rayon); `split=lazy`
/// only while the worker's deque is empty (`JoinSplitting.lazy`). `workers=<k>` sizes the pool.
public struct ForkJoin: Workload {
    /// How long the group form waits for a whole problem before failing the case.
    public let timeout: Duration

    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.forkJoin.rawValue
    public let summary = "fib(n) and a binary tree sum, by work-stealing join or by tasks in a group"
    public let operation = "one whole fib(n) or tree sum"
    public let usesBackend = true

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        func joins(fib n: Int, workers: String?) -> [[Parameter]] {
            Self.variants.map {
                [Parameter("fib", "\(n)"), Parameter("form", $0.form), Parameter("split", $0.split)]
                    + (workers.map { [Parameter("workers", $0)] } ?? [])
            }
        }
        func problem(_ name: String, _ size: Int, form: String, cutoff: Int) -> [Parameter] {
            [Parameter(name, "\(size)"), Parameter("form", form), Parameter("cutoff", "\(cutoff)")]
        }
        switch suite {
        case .smoke: return [[Parameter("fib", "20"), Parameter("form", "task"), Parameter("split", "eager")]]
        case .quick:
            // fib(25) by join (121,392 joins; small enough for the closure form too, and the
            // quick suite must fit in about 4 minutes); fib(20) by group split at every call
            // (21,890 tasks); the tree of 65,535 nodes split down to subtrees of 63, by join and
            // by group. fib(20) by async let on every backend's task executor, beside an eager
            // join of the same fib(20): at fib(25) the async-let cases took a fifth of the run.
            return joins(fib: 25, workers: nil) + [
                [Parameter("fib", "20"), Parameter("form", "task"), Parameter("split", "eager")],
                problem("fib", 20, form: "async-let", cutoff: 1),
                problem("fib", 20, form: "group", cutoff: 1),
                problem("tree", 16, form: "task", cutoff: 6),
                problem("tree", 16, form: "group", cutoff: 6),
            ]
        case .full:
            // workers=1: the cost of a join with nobody to steal (pure overhead); the default pool
            // (one worker per CPU) adds stealing and its cache traffic.
            return ["0", "1"].flatMap { joins(fib: 30, workers: $0) }
                + [problem("fib", 20, form: "group", cutoff: 1), problem("fib", 30, form: "group", cutoff: 15)]
                + [problem("fib", 25, form: "async-let", cutoff: 1), problem("fib", 30, form: "async-let", cutoff: 15)]
                // The tree of a million nodes split at every node by group is 2 million tasks per
                // sum, which on pthread-mutex would take a large part of the full suite for one
                // set. Groups split it down to subtrees of 255; every node is split at 65,535 nodes.
                + [1, 8].map { problem("tree", 20, form: "task", cutoff: $0) }
                + [problem("tree", 20, form: "group", cutoff: 8), problem("tree", 16, form: "group", cutoff: 1)]
        }
    }

    /// How a problem is split: by join with a task value or with closures, or into a group.
    enum Form: String, CaseIterable {
        case task, closure, group
        case asyncLet = "async-let"
    }

    /// Whether a join makes every right half stealable (rayon) or only while its deque is empty.
    enum Split: String, CaseIterable { case eager, lazy }

    /// rayon's join (task and closure forms), and lazy splitting with the task form.
    static let variants: [(form: String, split: String)] = [("task", "eager"), ("task", "lazy"), ("closure", "eager")]

    /// Calls with n ≥ 2 in a recursive fib(n), each of which joins: fib(n + 1) − 1.
    public static func joins(_ n: Int) -> Int {
        var (a, b) = (0, 1)
        for _ in 0..<(n + 1) { (a, b) = (b, a + b) }
        return a - 1
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let fib = try benchmarkCase.optionalInteger("fib", in: 2...40)
        let tree = try benchmarkCase.optionalInteger("tree", in: 1...24)
        guard (fib == nil) != (tree == nil) else {
            throw WorkloadError.badParameter("fork-join needs one problem, fib=<2...40> or tree=<1...24>")
        }
        let cutoff = try benchmarkCase.integer("cutoff", in: 0...40, default: 1)
        let workers = try benchmarkCase.integer("workers", in: 0...1_024, default: 0)
        let form: Form = try benchmarkCase.choice("form", default: .task)
        let split: Split = try benchmarkCase.choice("split", default: .eager)
        let splitting =
            switch split {
            case .eager: JoinSplitting.eager
            case .lazy: JoinSplitting.lazy(threshold: 1)
            }
        let backend = try benchmarkCase.requireBackend(backend)
        if form == .group {
            struct Make: RuntimeTypeConsumer {
                let workers: Int, fib: Int?, tree: Int?, cutoff: Int, timeout: Duration
                func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> any MeasuredOperation {
                    ForkJoin.groupOperation(
                        on: R(workers: workers), fib: fib, tree: tree, cutoff: cutoff, timeout: timeout)
                }
            }
            return try backend.specialized(
                Make(workers: workers, fib: fib, tree: tree, cutoff: cutoff, timeout: timeout))
        }
        if form == .asyncLet {
            guard let fib else {
                throw WorkloadError.badParameter("fork-join's async-let form solves fib=<n>, not the tree sum")
            }
            struct Make: RuntimeTypeConsumer {
                let workers: Int, n: Int, cutoff: Int, timeout: Duration
                func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> any MeasuredOperation {
                    AsyncLetForkJoin.operation(on: R(workers: workers), n: n, cutoff: cutoff, timeout: timeout)
                }
            }
            return try backend.specialized(Make(workers: workers, n: fib, cutoff: cutoff, timeout: timeout))
        }
        if tree != nil && form != .task {
            throw WorkloadError.badParameter(
                "fork-join's tree sum joins with form=task or form=group, got \(form.rawValue)")
        }
        let make = MakeJoin(
            workers: workers, splitting: splitting, fib: fib, tree: tree, cutoff: cutoff, closures: form == .closure)
        guard let operation = try backend.joining(make) else {
            let joiners = Backends.all.filter(\.offersJoin).map(\.id).joined(separator: ", ")
            throw WorkloadError.notApplicable(
                "join is offered by the \(joiners) backend only (form=group runs everywhere)")
        }
        return operation
    }

    /// The join forms on a runtime that offers join: the runtime made, its recursion specialized.
    struct MakeJoin: JoiningRuntimeTypeConsumer {
        let workers: Int, splitting: JoinSplitting, fib: Int?, tree: Int?, cutoff: Int, closures: Bool

        func callAsFunction<R: JoiningRuntime>(_: R.Type) -> any MeasuredOperation {
            let runtime = R(workers: workers, joinSplitting: splitting)
            let pointer = Unmanaged.passUnretained(runtime).toOpaque()  // the operation keeps it alive
            if let tree {
                let root = TreeNode.perfect(depth: tree)!, cutoff = self.cutoff
                return JoinOperation(
                    solve: { JoinRecursion<R>.treeSum(root, depth: tree, cutoff: cutoff, on: pointer) },
                    expected: TreeNode.expectedSum(depth: tree), shutdown: { runtime.shutdown() },
                    describe: {
                        "the tree of depth \(tree) summed to \($0), expected \(TreeNode.expectedSum(depth: tree))"
                    })
            }
            let n = fib!
            let recursion = closures ? JoinRecursion<R>.fibByClosures : JoinRecursion<R>.fibByTasks
            return JoinOperation(
                solve: { recursion(n, pointer) }, expected: ForkJoin.sequentialFib(n), shutdown: { runtime.shutdown() },
                describe: { "fib(\(n)) gave \($0), expected \(ForkJoin.sequentialFib(n))" })
        }
    }

    /// The group form on `runtime`, which the operation owns from now on. Generic, so the tests can
    /// hand it a runtime that loses a task.
    static func groupOperation<R: ConcurrencyRuntime>(
        on runtime: R, fib: Int?, tree: Int?, cutoff: Int,
        timeout: Duration
    ) -> any MeasuredOperation {
        if let tree {
            return GroupForkJoin(
                runtime: runtime,
                problem: TreeSumProblem(root: TreeNode.perfect(depth: tree)!, depth: tree, cutoff: cutoff),
                timeout: timeout)
        }
        return GroupForkJoin(runtime: runtime, problem: FibProblem(n: fib!, cutoff: cutoff), timeout: timeout)
    }

    /// fib(n) by iteration: what every form's answer is checked against.
    static func sequentialFib(_ n: Int) -> Int {
        var (a, b) = (0, 1)
        for _ in 0..<n { (a, b) = (b, a + b) }
        return a
    }
}

import Harness
import RuntimeKit

/// fork-join's recursions by join on a runtime `R`, made into functions where `R` is known
/// (`ForkJoin`'s consumer of `Backend.joining`), so every call in them is specialized.
///
/// The runtime is passed as an unretained pointer and used as a guaranteed reference: every
/// worker recurses, and a retain and release of the shared runtime per call would bounce its
/// reference count between cores (that alone cost more than the join).
enum JoinRecursion<R: JoiningRuntime> {
    /// fib(n), the right half of each join a `FibHalf` value: no allocation per join.
    static func fibByTasks(_ n: Int, on runtime: UnsafeMutableRawPointer) -> Int {
        if n < 2 { return n }
        let (a, b) = Unmanaged<R>.fromOpaque(runtime)._withUnsafeGuaranteedRef { joiner in
            joiner.join({ fibByTasks(n - 1, on: runtime) }, FibHalf<R>(n: n - 2, runtime: runtime))
        }
        return a + b
    }

    /// fib(n) by `join` of two closures: the same recursion, paying for the closure machinery.
    static func fibByClosures(_ n: Int, on runtime: UnsafeMutableRawPointer) -> Int {
        if n < 2 { return n }
        let (a, b) = Unmanaged<R>.fromOpaque(runtime)._withUnsafeGuaranteedRef { joiner in
            joiner.join({ fibByClosures(n - 1, on: runtime) }, { fibByClosures(n - 2, on: runtime) })
        }
        return a + b
    }

    /// The sum of `node`'s subtree of `depth` levels, split at every node deeper than `cutoff`;
    /// the right subtree a `SubtreeHalf` value.
    static func treeSum(_ node: TreeNode, depth: Int, cutoff: Int, on runtime: UnsafeMutableRawPointer) -> Int {
        guard depth > max(1, cutoff), let left = node.left, let right = node.right else { return node.sum() }
        let (a, b) = Unmanaged<R>.fromOpaque(runtime)._withUnsafeGuaranteedRef { joiner in
            joiner.join(
                { treeSum(left, depth: depth - 1, cutoff: cutoff, on: runtime) },
                SubtreeHalf<R>(node: right, depth: depth - 1, cutoff: cutoff, runtime: runtime))
        }
        return node.value + a + b
    }
}

/// The right half of a fib join, in the joiner's frame. Generic over the runtime: a thief runs
/// it through `R`'s specialized code too (`JoinTask`).
struct FibHalf<R: JoiningRuntime>: JoinTask {
    let n: Int
    let runtime: UnsafeMutableRawPointer

    func run() -> Int { JoinRecursion<R>.fibByTasks(n, on: runtime) }
}

/// The right subtree of a tree-sum join.
struct SubtreeHalf<R: JoiningRuntime>: JoinTask {
    let node: TreeNode
    let depth: Int
    let cutoff: Int
    let runtime: UnsafeMutableRawPointer

    func run() -> Int { JoinRecursion<R>.treeSum(node, depth: depth, cutoff: cutoff, on: runtime) }
}

/// One whole problem solved by join per operation. Not generic either: a workload's operation is
/// reached through `any MeasuredOperation`, so its recursion is a function formed beforehand.
final class JoinOperation: MeasuredOperation {
    private let solve: () -> Int
    private let expected: Int
    private let shutdown: () -> Void
    /// The verification's message for a wrong answer.
    private let describe: (Int) -> String
    private var wrong: Int?

    init(solve: @escaping () -> Int, expected: Int, shutdown: @escaping () -> Void, describe: @escaping (Int) -> String)
    {
        self.solve = solve
        self.expected = expected
        self.shutdown = shutdown
        self.describe = describe
    }

    func run(_ count: Int) throws {
        for _ in 0..<count {
            let value = solve()
            if value != expected { wrong = value }
        }
    }

    func finish() throws {
        shutdown()
        if let wrong { throw WorkloadError.verificationFailed(describe(wrong)) }
    }
}

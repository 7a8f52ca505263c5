import CBodyCost
import Harness
import Results
import RuntimeKit
import Synchronization

/// fork-join with groups, on any backend: what a join-less runtime offers for divide and conquer.
/// Every subproblem above `cutoff` is a task submitted with `async(group:)` into one group per
/// run, and adds its children to that same group (a block adding work to its own group, which
/// man-dispatch_group.txt says keeps `wait` from returning early); subproblems at or below the
/// cutoff are solved sequentially and their results added to one atomic total. The measuring
/// thread, outside the pool, waits for the group with a deadline. Nothing blocks inside a task,
/// so the fixed-size pools cannot deadlock, as they would if every parent waited for its children.
final class GroupForkJoin<R: ConcurrencyRuntime, P: DivideAndConquer>: MeasuredOperation, @unchecked Sendable {
    private let runtime: R
    private let problem: P
    private let group: R.Group
    private let timeout: Duration
    private let total = Atomic<Int>(0)
    private var failure: WorkloadError?

    init(runtime: R, problem: P, timeout: Duration) {
        self.runtime = runtime
        self.problem = problem
        self.timeout = timeout
        group = runtime.makeGroup()
    }

    private func spawn(_ piece: P.Piece) {
        runtime.async(group: group) { [self] in
            guard let (left, right) = problem.split(piece) else {
                // relaxed: the group's leave (release) and wait (acquire) order every addition
                // before the measuring thread's read.
                total.wrappingAdd(problem.solve(piece), ordering: .relaxed)
                return
            }
            spawn(left)
            spawn(right)
        }
    }

    func run(_ count: Int) throws {
        if let failure { throw failure }
        for _ in 0..<count {
            total.store(0, ordering: .relaxed)
            spawn(problem.whole)
            guard group.wait(timeout: timeout) == .success else {
                failure = .verificationFailed(
                    "the group was still not empty after \(timeout): the runtime lost or stalled a task")
                throw failure!
            }
            let sum = total.load(ordering: .relaxed)
            if sum != problem.expected {
                failure = .verificationFailed("the tasks added up to \(sum), expected \(problem.expected)")
                throw failure!
            }
        }
    }

    func finish() throws {
        runtime.shutdown()
        if let failure { throw failure }
    }
}

/// How to split a divide-and-conquer problem and how to solve a leaf: `FibProblem` and
/// `TreeSumProblem` conform.
protocol DivideAndConquer: Sendable {
    associatedtype Piece: Sendable
    var whole: Piece { get }
    var expected: Int { get }
    /// A subproblem's two halves, or nil when it is small enough to solve sequentially.
    func split(_ piece: Piece) -> (Piece, Piece)?
    func solve(_ piece: Piece) -> Int
}

/// fib(n) split at every call above `cutoff`; a leaf is fib(k) for k ≤ cutoff, computed by the
/// same recursion without tasks.
struct FibProblem: DivideAndConquer {
    let n: Int
    let cutoff: Int

    var whole: Int { n }
    var expected: Int { ForkJoin.sequentialFib(n) }

    func split(_ piece: Int) -> (Int, Int)? { piece > max(1, cutoff) ? (piece - 1, piece - 2) : nil }
    func solve(_ piece: Int) -> Int { Self.fib(piece) }

    /// The leaf, in C at a fixed alignment (`rb_fib_leaf`).
    static func fib(_ n: Int) -> Int { rb_fib_leaf(n) }
}

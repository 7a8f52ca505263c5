import Harness
import RuntimeKit

/// fork-join's `async-let` form: fib(n) split by `async let` at every call above the cutoff, the
/// left half a child task and the right half computed by the parent, as Swift code writes divide
/// and conquer. The run's task prefers the backend's task executor and every child inherits it, so
/// on work-stealing this is `join`'s recursion with Swift's child tasks instead of the deque's
/// inline halves; on swift-concurrency it runs on the cooperative pool.
///
/// One operation is one whole fib(n); a run's task computes `count` of them and counts those that
/// came out right, which the driver compares with what was asked for.
enum AsyncLetForkJoin {
    static func operation<R: ConcurrencyRuntime>(on runtime: R, n: Int, cutoff: Int, timeout: Duration)
        -> any MeasuredOperation
    {
        let expected = ForkJoin.sequentialFib(n)
        let body: AsyncRunBody.Body = { count, tally in
            var right = 0
            for index in 0..<count {
                if await fib(n, cutoff: cutoff) == expected { right += 1 }
                tally.advanced(to: index, of: count)
            }
            return right
        }
        return AsyncOperation(
            runtime: runtime,
            driver: AsyncDriver(
                units: "fib(\(n)) by async let", executor: runtime.makeTaskExecutor(), timeout: timeout, body: body),
            latencies: nil)
    }

    /// Subproblems of n ≤ max(1, cutoff) are solved by plain recursion, as the group form does.
    static func fib(_ n: Int, cutoff: Int) async -> Int {
        if n <= max(1, cutoff) { return FibProblem.fib(n) }
        async let left = fib(n - 1, cutoff: cutoff)
        let right = await fib(n - 2, cutoff: cutoff)
        return await left + right
    }
}

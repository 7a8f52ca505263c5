import PThreadPrimitives
import StealingRuntime
import Testing

@Suite("work-stealing join")
struct JoinTests {
    /// fib with a join at every call: the result must be exact whatever was stolen.
    func fib(_ n: Int, on runtime: StealingRuntime) -> Int {
        if n < 2 { return n }
        let (a, b) = runtime.join({ fib(n - 1, on: runtime) }, { fib(n - 2, on: runtime) })
        return a + b
    }

    @Test("fib(25) with a join at every call, from outside the pool and from inside it", arguments: [1, 2, 4])
    func fibonacci(workers: Int) async throws {
        let (outside, inside) = try await onDedicatedThread { () -> (Int, Int) in
            let runtime = StealingRuntime(workers: workers)
            defer { runtime.shutdown() }
            let outside = JoinTests().fib(25, on: runtime)
            let semaphore = runtime.makeSemaphore(value: 0)
            let box = ResultBox()
            runtime.async {
                box.value = JoinTests().fib(20, on: runtime)
                semaphore.signal()
            }
            semaphore.wait()
            return (outside, box.value)
        }
        #expect(outside == 75_025)
        #expect(inside == 6_765)
    }

    @Test("a tree sum over 1,000,000 leaves by recursive join")
    func treeSum() async throws {
        let total = try await onDedicatedThread { () -> Int in
            let runtime = StealingRuntime(workers: 0)
            defer { runtime.shutdown() }
            func sum(_ range: Range<Int>) -> Int {
                if range.count <= 64 { return range.reduce(0, +) }
                let middle = range.lowerBound + range.count / 2
                let (a, b) = runtime.join({ sum(range.lowerBound..<middle) }, { sum(middle..<range.upperBound) })
                return a + b
            }
            return sum(0..<1_000_000)
        }
        #expect(total == 499_999_500_000)
    }
}

final class ResultBox: @unchecked Sendable { var value = 0 }

// Reference for fork-join's closure form: what Swift charges to make a non-escaping closure
// callable from elsewhere (`withoutActuallyEscaping`), with no runtime involved. Each call hands the
// right half of a join-shaped call to a function that is not inlined, once as a closure made
// escapable (the path `join(_:_:)` with two closures takes) and once as a struct value (the
// `JoinTask` form). The difference per call is the language's price, which no join
// implementation can avoid: one context allocated, released and checked for escape.
// Build and run (from the repository root), on one CPU:
//   swiftc -O tools/swift-reference/escaping-closure.swift -o /tmp/escaping-closure
//   taskset -c 1 /tmp/escaping-closure
import Foundation

struct Half {
    let n: Int
    let k: Int
    func run() -> Int { n &+ k }
}

@inline(never) func callClosure(_ body: @escaping () -> Int) -> Int { body() }
@inline(never) func callTask(_ task: UnsafePointer<Half>) -> Int { task.pointee.run() }

@inline(never) func joinClosure(_ right: () -> Int) -> Int {
    withoutActuallyEscaping(right) { right in callClosure(right) }
}
@inline(never) func joinTask(_ right: Half) -> Int { withUnsafePointer(to: right) { callTask($0) } }

@inline(never) func viaClosure(_ n: Int, _ k: Int) -> Int { joinClosure { n &+ k } }
@inline(never) func viaTask(_ n: Int, _ k: Int) -> Int { joinTask(Half(n: n, k: k)) }

func nanoseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

let calls = 20_000_000
var sink = 0
for round in 0..<5 {
    var start = nanoseconds()
    for i in 0..<calls { sink &+= viaClosure(i, round) }
    let closure = (nanoseconds() - start) / Double(calls)
    start = nanoseconds()
    for i in 0..<calls { sink &+= viaTask(i, round) }
    let task = (nanoseconds() - start) / Double(calls)
    print(String(format: "closure %.2f ns  task %.2f ns  difference %.2f ns per call", closure, task, closure - task))
}
if sink == 42 { print(sink) }  // keeps the calls observable

// A child process for the main-queue test (Tests/DispatchSemanticsTests/MainQueueTests.swift):
// `dispatch_main` must be called on the main thread, which a Swift Testing exit test does not
// give. Usage: DispatchMainProbe fifo-dispatch|libdispatch. Other threads submit 1,000 blocks to
// the main queue; the last one checks they ran in order, one at a time, and exits 42 (else 1).
// Reaching the end of main means dispatchMain returned: exit 3.
#if canImport(Glibc)
import Glibc
#endif
import CDispatch
import CDispatchShim
import FIFODispatch
import Synchronization

final class Log: @unchecked Sendable {
    var order: [Int] = []  // touched only by main-queue blocks
    let running = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    func record(_ index: Int) {
        if running.add(1, ordering: .sequentiallyConsistent).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
        order.append(index)
        running.subtract(1, ordering: .sequentiallyConsistent)
    }
    func verdict() -> Int32 { order == Array(0..<1_000) && overlaps.load(ordering: .relaxed) == 0 ? 42 : 1 }
}

let log = Log()
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: DispatchMainProbe fifo-dispatch|libdispatch")
    exit(2)
}

switch arguments[1] {
case "fifo-dispatch":
    let runtime = FIFODispatch(workers: 2)
    runtime.async {
        usleep(10_000)  // after dispatchMain has started
        for index in 0..<1_000 { runtime.mainQueue.async { log.record(index) } }
        runtime.mainQueue.async { exit(FIFOQueue.currentLabel == runtime.mainQueue.label ? log.verdict() : 1) }
    }
    runtime.dispatchMain()
case "libdispatch":
    // @Sendable closures: top-level code is main-actor isolated, and a closure that inherits that
    // isolation traps when libdispatch runs it on a worker.
    final class Box { let work: @Sendable () -> Void; init(_ w: @escaping @Sendable () -> Void) { work = w } }
    let main = UInt(bitPattern: rb_dispatch_main_queue())
    @Sendable func submit(_ queue: OpaquePointer, _ work: @escaping @Sendable () -> Void) {
        dispatch_async_f(queue, Unmanaged.passRetained(Box(work)).toOpaque()) { Unmanaged<Box>.fromOpaque($0!).takeRetainedValue().work() }
    }
    submit(dispatch_get_global_queue(0, 0)) {
        usleep(10_000)
        let mainQueue = OpaquePointer(bitPattern: main)!
        for index in 0..<1_000 { submit(mainQueue) { log.record(index) } }
        submit(mainQueue) { exit(log.verdict()) }
    }
    dispatch_main()
default:
    print("unknown implementation \(arguments[1])")
    exit(2)
}
exit(3)

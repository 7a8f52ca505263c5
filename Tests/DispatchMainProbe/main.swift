// A child process for the main-queue test (Tests/DispatchSemanticsTests/MainQueueTests.swift):
// `dispatch_main` must be called on the main thread, which a Swift Testing exit test does not
// give. Usage: DispatchMainProbe fifo-dispatch|libdispatch. Other threads submit 1,000 blocks to
// the main queue; the last one checks they ran in order, one at a time, and exits 42 (else 1).
// Reaching the end of main means dispatchMain returned: exit 3.
//
// DispatchMainProbe fifo-dispatch|libdispatch sync-on-main: libdispatch's dispatch_sync_on_main
// (LibdispatchSuite/SyncOnMainSuite.swift). A block on a serial queue calls sync onto the main
// queue ten times, 50 ms apart, while a main-queue block comes back every 100 ms; every sync must
// return, its block run as the main queue's (its label current), never beside other main-queue
// work. Exits 42 if so, 1 if not.
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
guard arguments.count == 2 || (arguments.count == 3 && arguments[2] == "sync-on-main") else {
    print("usage: DispatchMainProbe fifo-dispatch|libdispatch [sync-on-main]")
    exit(2)
}

/// The sync-on-main scenario: syncs onto the main queue from a block of another queue.
final class SyncOnMain: @unchecked Sendable {
    let syncs = Atomic<Int>(0)
    let offMainQueue = Atomic<Int>(0)
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let ticks = Atomic<Int>(0)
    let stopTicking = Atomic<Bool>(false)
    /// Runs `body` as main-queue work, counting overlaps with other main-queue work.
    func mainWork(_ body: () -> Void) {
        if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 { overlaps.add(1, ordering: .relaxed) }
        body()
        usleep(2_000)
        inside.subtract(1, ordering: .sequentiallyConsistent)
    }
    /// Inside each sync's block.
    func synced(onMainQueue: Bool) {
        mainWork {
            syncs.add(1, ordering: .sequentiallyConsistent)
            if !onMainQueue { offMainQueue.add(1, ordering: .relaxed) }
        }
    }
    func verdict() -> Int32 {
        let ok =
            syncs.load(ordering: .sequentiallyConsistent) == 10 && offMainQueue.load(ordering: .relaxed) == 0
            && overlaps.load(ordering: .relaxed) == 0 && ticks.load(ordering: .relaxed) > 0
        return ok ? 42 : 1
    }
}
let syncOnMain = SyncOnMain()

if arguments.count == 3 {
    switch arguments[1] {
    case "fifo-dispatch":
        let runtime = FIFODispatch(workers: 2)
        // The main queue's other work: a block every 100 ms (libdispatch's test used a timer),
        // resubmitted from a worker after a sleep.
        @Sendable func tick() {
            if syncOnMain.stopTicking.load(ordering: .relaxed) { return }
            syncOnMain.mainWork { syncOnMain.ticks.add(1, ordering: .relaxed) }
            runtime.async {
                usleep(100_000); runtime.mainQueue.async { tick() }
            }
        }
        runtime.makeQueue(label: "foo.bar").async {
            runtime.mainQueue.async { tick() }
            for _ in 0..<10 {
                runtime.mainQueue.sync {
                    syncOnMain.synced(onMainQueue: FIFOQueue.currentLabel == runtime.mainQueue.label)
                }
                usleep(50_000)
            }
            syncOnMain.stopTicking.store(true, ordering: .relaxed)
            runtime.mainQueue.async { exit(syncOnMain.verdict()) }
        }
        runtime.dispatchMain()
    case "libdispatch":
        final class Box { let work: @Sendable () -> Void; init(_ w: @escaping @Sendable () -> Void) { work = w } }
        let main = UInt(bitPattern: rb_dispatch_main_queue())
        @Sendable func submit(_ queue: OpaquePointer, _ work: @escaping @Sendable () -> Void) {
            dispatch_async_f(queue, Unmanaged.passRetained(Box(work)).toOpaque()) {
                Unmanaged<Box>.fromOpaque($0!).takeRetainedValue().work()
            }
        }
        @Sendable func tick() {
            if syncOnMain.stopTicking.load(ordering: .relaxed) { return }
            syncOnMain.mainWork { syncOnMain.ticks.add(1, ordering: .relaxed) }
            submit(dispatch_get_global_queue(0, 0)) {
                usleep(100_000); submit(OpaquePointer(bitPattern: main)!) { tick() }
            }
        }
        // Released once submitted (a queue with a block pending stays alive until it has run): a
        // reference kept to exit would be a leak to LeakSanitizer, which fails the probe's status.
        let fooBar = dispatch_queue_create("foo.bar", nil)
        submit(fooBar) {
            let mainQueue = OpaquePointer(bitPattern: main)!
            submit(mainQueue) { tick() }
            for _ in 0..<10 {
                dispatch_sync_f(mainQueue, nil) { _ in
                    let label = String(cString: dispatch_queue_get_label(nil))
                    syncOnMain.synced(
                        onMainQueue: label
                            == String(cString: dispatch_queue_get_label(OpaquePointer(rb_dispatch_main_queue()))))
                }
                usleep(50_000)
            }
            syncOnMain.stopTicking.store(true, ordering: .relaxed)
            submit(mainQueue) { exit(syncOnMain.verdict()) }
        }
        rb_dispatch_release(UnsafeMutableRawPointer(fooBar))
        dispatch_main()
    default:
        print("unknown implementation \(arguments[1])")
        exit(2)
    }
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
        dispatch_async_f(queue, Unmanaged.passRetained(Box(work)).toOpaque()) {
            Unmanaged<Box>.fromOpaque($0!).takeRetainedValue().work()
        }
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

#if canImport(Glibc)
import Glibc
#endif
import RuntimeKit
import Synchronization

/// serial queue: FIFO, one at a time, writes visible, sync.
enum SerialQueueScenarios {
    static let all: [ConformanceScenario] = [
        ConformanceScenario(
            .serialQueue, "blocks run in submission order, never two at once, each seeing the writes before it"
        ) {
            try fifoOneAtATime($0)
        },
        ConformanceScenario(.serialQueue, "sync returns the block's value and rethrows its error") {
            try syncValueAndError($0)
        },
        ConformanceScenario(.serialQueue, "sync from the outside waits for the blocks submitted before it") {
            try syncWaitsForEarlierBlocks($0)
        },
        ConformanceScenario(
            .serialQueue,
            "sync(context:_:) runs the function once, on the caller, with the context, after the blocks before it"
        ) { try functionSyncAfterEarlierBlocks($0) },
        ConformanceScenario(
            .serialQueue, "sync on an idle queue from inside another queue's block", requires: [.syncInsideWork]
        ) {
            try syncFromInsideAnotherQueue($0, busy: false)
        },
        ConformanceScenario(
            .serialQueue,
            "sync on a busy queue from inside another queue's block waits its turn",
            requires: [.syncInsideWork, .blockingWaitInsideWork]
        ) { try syncFromInsideAnotherQueue($0, busy: true) },
    ]

    private static func fifoOneAtATime<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        let queues = 4, blocksPerQueue = 5_000
        try withRuntime(type) { runtime in
            let lanes = (0..<queues).map { Lane(runtime.makeSerialQueue(label: "fifo-\($0)")) }
            // Interleave submissions so the queues compete for the same workers.
            for index in 0..<blocksPerQueue {
                for lane in lanes {
                    lane.queue.async {
                        if lane.inside.exchange(true, ordering: .relaxed) { lane.overlaps.add(1, ordering: .relaxed) }
                        lane.order.value.append(index)
                        lane.inside.store(false, ordering: .relaxed)
                    }
                }
            }
            for (number, lane) in lanes.enumerated() {
                let order = lane.queue.sync { lane.order.value }
                try require(
                    lane.queue.label == "fifo-\(number)",
                    "label '\(lane.queue.label)' is not the one given, 'fifo-\(number)'")
                try require(
                    lane.overlaps.load(ordering: .relaxed) == 0,
                    "queue \(number): two blocks ran at once \(lane.overlaps.load(ordering: .relaxed)) times")
                try require(
                    order == Array(0..<blocksPerQueue),
                    "queue \(number): blocks ran out of order or not exactly once "
                        + "(\(order.count) of \(blocksPerQueue) recorded; "
                        + "first out of place at \(firstMismatch(order, blocksPerQueue)))")
            }
        }
    }

    private static func syncValueAndError<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let queue = runtime.makeSerialQueue(label: "sync")
            try require(queue.sync { 6 * 7 } == 42, "sync did not return the block's value")
            var caught: Refusal?
            do throws(Refusal) {
                _ = try queue.sync { () throws(Refusal) -> Int in throw .refused(7) }
            } catch {
                caught = error  // typed: the error type survives the queue
            }
            try require(
                caught == .refused(7), "sync did not rethrow the block's error (got \(String(describing: caught)))")
            try require(
                queue.sync { "still usable" } == "still usable", "the queue did not recover after a block threw")
        }
    }

    private static func syncWaitsForEarlierBlocks<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let queue = runtime.makeSerialQueue(label: "sync-after-async")
            let written = Unsynchronized(0)
            for round in 1...200 {
                queue.async {
                    spin(2_000)
                    written.value = round
                }
                let seen = queue.sync { written.value }
                try require(
                    seen == round, "round \(round): sync ran before the block submitted ahead of it (saw \(seen))")
            }
        }
    }

    private static func functionSyncAfterEarlierBlocks<R: ConcurrencyRuntime>(_ type: R.Type) throws {
        try withRuntime(type) { runtime in
            let queue = runtime.makeSerialQueue(label: "sync_f-after-async")
            let written = Unsynchronized(0)
            var record = FunctionSyncRecord(written: written)
            let caller = pthread_self()
            try withUnsafeMutablePointer(to: &record) { context in
                for round in 1...200 {
                    queue.async {
                        spin(2_000)
                        written.value = round
                    }
                    queue.sync(context: UnsafeMutableRawPointer(context)) { raw in
                        let record = raw!.assumingMemoryBound(to: FunctionSyncRecord.self)
                        record.pointee.calls += 1
                        record.pointee.context = raw
                        record.pointee.thread = pthread_self()
                        record.pointee.seen = record.pointee.written.value
                    }
                    let seen = context.pointee
                    try require(
                        seen.calls == round,
                        "round \(round): the function has run \(seen.calls) times in \(round) syncs")
                    try require(
                        seen.context == UnsafeMutableRawPointer(context),
                        "round \(round): "
                            + "the function got context \(String(describing: seen.context)), not the one given")
                    try require(
                        seen.thread.map { pthread_equal($0, caller) != 0 } == true,
                        "round \(round): the function ran on another thread than the caller's")
                    try require(
                        seen.seen == round,
                        "round \(round): the function ran before the block submitted ahead of it (saw \(seen.seen))")
                }
            }
        }
    }

    private static func syncFromInsideAnotherQueue<R: ConcurrencyRuntime>(_ type: R.Type, busy: Bool) throws {
        try withRuntime(type) { runtime in
            let outer = runtime.makeSerialQueue(label: "outer")
            let inner = runtime.makeSerialQueue(label: "inner")
            let state = Unsynchronized(0)
            let gate = Gate()
            let innerStarted = runtime.makeSemaphore(value: 0)
            if busy {
                inner.async {
                    innerStarted.signal()
                    gate.pass()
                    state.value = 1
                }
                innerStarted.wait()
            } else {
                inner.sync { state.value = 1 }
                gate.open()
            }
            let answer = Unsynchronized(0)
            let done = runtime.makeSemaphore(value: 0)
            outer.async {
                answer.value = inner.sync { state.value + 41 }
                done.signal()
            }
            if busy { gate.open() }
            done.wait()
            try require(
                answer.value == 42,
                "the inner sync saw \(answer.value - 41) instead of the write of the block before it")
        }
    }
}

private enum Refusal: Error, Equatable { case refused(Int) }

/// What a `sync(context:_:)` function finds and leaves behind; its context points to one. The
/// function is a C function pointer and captures nothing, so everything goes through the context.
private struct FunctionSyncRecord {
    let written: Unsynchronized<Int>
    var calls = 0
    var context: UnsafeMutableRawPointer?
    var thread: pthread_t?
    var seen = 0
}

/// One serial queue under test with what its blocks record.
private final class Lane<Queue: SerialQueue>: Sendable {
    let queue: Queue
    let order = Unsynchronized<[Int]>([])
    let inside = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    init(_ queue: Queue) { self.queue = queue }
}

#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

/// Serial and concurrent queues, barriers, labels and `sync`, on FIFODispatch and on libdispatch.
@Suite("queues: serial, concurrent, barriers, labels, sync")
struct QueueSemanticsTests {
    @Test(
        "serial queue: FIFO, one at a time, each block sees the writes of the one before",
        arguments: Implementation.underTest)
    func serialQueue(_ implementation: Implementation) throws {
        try with(implementation) { api in
            final class Log: @unchecked Sendable { var order: [Int] = [] }  // touched only by the queue's blocks
            let queue = api.makeQueue("test.serial")
            let log = Log(), meter = ConcurrencyMeter(), done = Latch()
            let blocks = 20_000
            for index in 0..<blocks {
                api.async(queue) {
                    meter.measure { log.order.append(index) }
                    if index == blocks - 1 { done.open() }
                }
            }
            try #require(done.wait(), "the serial queue did not finish")
            var order: [Int] = []
            api.sync(queue) { order = log.order }
            #expect(order == Array(0..<blocks))
            #expect(meter.maximum == 1)
        }
    }

    @Test("serial queues run concurrently with each other", arguments: Implementation.underTest)
    func serialQueuesOverlap(_ implementation: Implementation) throws {
        try with(implementation) { api in
            let first = api.makeQueue("test.first"), second = api.makeQueue("test.second")
            let meet = Rendezvous(parties: 2), results = Recorder<Bool>(), done = Latch(), finished = Atomic<Int>(0)
            for queue in [first, second] {
                api.async(queue) {
                    results.append(meet.arrive())
                    if finished.add(1, ordering: .sequentiallyConsistent).newValue == 2 { done.open() }
                }
            }
            try #require(done.wait())
            #expect(results.all == [true, true], "blocks on two serial queues never ran at the same time")
        }
    }

    @Test("concurrent queue: blocks overlap, never more at once than the workers", arguments: Implementation.underTest)
    func concurrentQueue(_ implementation: Implementation) throws {
        with(implementation) { api in
            let queue = api.makeQueue("test.concurrent", concurrent: true)
            let meet = Rendezvous(parties: 2), meter = ConcurrencyMeter(), group = api.makeGroup(),
                met = Recorder<Bool>()
            for _ in 0..<2 { api.async(queue, group: group) { meter.measure { met.append(meet.arrive()) } } }
            for _ in 0..<200 { api.async(queue, group: group) { meter.measure(spinning: 100) } }
            #expect(api.wait(group: group, timeout: patience) == .success)
            #expect(met.all == [true, true], "two blocks of a concurrent queue never ran together")
            // libdispatch may add threads beyond the CPU count when blocks block; these spin.
            #expect(
                meter.maximum >= 2 && meter.maximum <= max(api.workers, 2) + (implementation == .libdispatch ? 2 : 0))
        }
    }

    @Test(
        "readers and writers: thousands of readers, periodic barrier writers, never overlapping",
        arguments: Implementation.underTest)
    func readersWriter(_ implementation: Implementation) throws {
        with(implementation) { api in
            final class Shared: @unchecked Sendable { var value = 0 }  // written only by barriers
            let queue = api.makeQueue("test.rw", concurrent: true)
            let readers = Atomic<Int>(0), writers = Atomic<Int>(0), failures = Failures(), shared = Shared()
            let group = api.makeGroup()
            var expectedWrites = 0
            for index in 0..<5_000 {
                if index % 100 == 99 {
                    expectedWrites += 1
                    let submit = { (work: @escaping @Sendable () -> Void) in api.asyncBarrier(queue, work) }
                    api.enter(group)
                    submit {
                        let w = writers.add(1, ordering: .sequentiallyConsistent).newValue
                        failures.check(
                            w == 1 && readers.load(ordering: .sequentiallyConsistent) == 0,
                            "a barrier ran alongside other blocks")
                        shared.value += 1
                        spin(20)
                        writers.subtract(1, ordering: .sequentiallyConsistent)
                        api.leave(group)
                    }
                } else {
                    let writesBefore = expectedWrites
                    api.async(queue, group: group) {
                        readers.add(1, ordering: .sequentiallyConsistent)
                        failures.check(
                            writers.load(ordering: .sequentiallyConsistent) == 0, "a reader ran during a barrier")
                        // Every barrier submitted before this reader has finished, none after it has started.
                        failures.check(
                            shared.value == writesBefore, "reader after \(writesBefore) barriers saw \(shared.value)")
                        readers.subtract(1, ordering: .sequentiallyConsistent)
                    }
                }
            }
            #expect(api.wait(group: group, timeout: patience) == .success)
            var final = 0
            api.syncBarrier(queue) { final = shared.value }
            #expect(final == expectedWrites)
            #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        }
    }

    @Test(
        "sync runs on the caller's thread after the blocks before it; a barrier sync runs alone",
        arguments: Implementation.underTest)
    func syncOnCaller(_ implementation: Implementation) throws {
        with(implementation) { api in
            let serial = api.makeQueue("test.sync"), concurrent = api.makeQueue("test.sync.c", concurrent: true)
            let ran = Atomic<Int>(0)
            for _ in 0..<100 {
                api.async(serial) {
                    spin(10); ran.add(1, ordering: .relaxed)
                }
            }
            let caller = pthread_self()
            var onCaller = false, seen = 0
            api.sync(serial) {
                onCaller = isCurrent(caller); seen = ran.load(ordering: .relaxed)
            }
            #expect(onCaller)
            #expect(seen == 100, "sync ran before the blocks submitted ahead of it")
            let running = Atomic<Int>(0)
            for _ in 0..<100 {
                api.async(concurrent) {
                    running.add(1, ordering: .relaxed); spin(10); running.subtract(1, ordering: .relaxed)
                }
            }
            var aloneOnCaller = false
            api.syncBarrier(concurrent) {
                aloneOnCaller = running.load(ordering: .relaxed) == 0 && isCurrent(caller)
            }
            #expect(aloneOnCaller)
        }
    }

    @Test("labels are copied, and a block can ask for its queue's label", arguments: Implementation.underTest)
    func labels(_ implementation: Implementation) throws {
        try with(implementation) { api in
            var name = "com.example.subsystem.taskXYZ"
            let queue = api.makeQueue(name)
            name = "changed"
            #expect(api.label(of: queue) == "com.example.subsystem.taskXYZ")
            let seen = Recorder<String?>(), done = Latch()
            api.async(queue) {
                seen.append(api.currentLabel()); done.open()
            }
            try #require(done.wait())
            #expect(seen.all == ["com.example.subsystem.taskXYZ"])
            var insideSync: String?
            api.sync(queue) { insideSync = api.currentLabel() }
            #expect(insideSync == "com.example.subsystem.taskXYZ")
            // Outside any queue (a plain thread: the test itself runs on Swift concurrency's
            // executor, which on Linux is a libdispatch queue). libdispatch answers with its default
            // root queue's label, as its man page says dispatch_get_current_queue does "in all other
            // cases"; FIFODispatch answers nil, which no queue's label can be confused with.
            let outsideLabel = Recorder<String?>()
            PThread.spawn { outsideLabel.append(api.currentLabel()) }.join()
            let outside = outsideLabel.all.first ?? "missing"
            switch implementation {
            case .fifoDispatch: #expect(outside == nil)
            case .libdispatch:
                #expect(outside?.hasPrefix("com.apple.root.default-qos") == true, "\(String(describing: outside))")
            }
        }
    }

    @Test(
        "async with a completion block on a caller-supplied queue (the guide's averaging example)",
        arguments: Implementation.underTest)
    func completionBlock(_ implementation: Implementation) throws {
        try with(implementation) { api in
            let work = api.makeQueue("test.work", concurrent: true), callerQueue = api.makeQueue("test.caller")
            let values = (1...1_000).map(Double.init)
            let result = Recorder<(Double, String?)>(), done = Latch()
            // average(data, queue, completion): compute on `work`, then hand the result to
            // `completion` on the caller's queue.
            api.async(work) {
                let average = values.reduce(0, +) / Double(values.count)
                api.async(callerQueue) {
                    result.append((average, api.currentLabel())); done.open()
                }
            }
            try #require(done.wait())
            #expect(result.all.first?.0 == 500.5)
            #expect(result.all.first?.1 == "test.caller")
        }
    }
}

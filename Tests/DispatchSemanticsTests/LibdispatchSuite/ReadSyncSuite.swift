#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_readsync.c: readers and writers on a concurrent queue. Many threads each
    /// read twice per lap with `sync`; every 100th lap also submits a writer as an async barrier,
    /// and every 1,000th lap waits for the queue to drain with a barrier `sync` while the other
    /// threads hold back. Readers and writers each sleep, then busy-check that no one of the
    /// other kind is inside. Run twice: writers on the readers' queue, and (rdar://8186485)
    /// writers on the concurrent queue the readers' queue targets, whose barrier must keep out
    /// the syncs passing through it.
    ///
    /// Scaled from 10,000 laps on 64 threads per CPU to 2,000 laps on 16 threads. Where
    /// libdispatch counted the most readers inside at once after the fact, each thread's first
    /// read here waits for all the others to be inside too (they cannot be kept out: the first
    /// writer comes after the 100th lap).
    @Suite("dispatch_readsync.c: sync readers and barrier writers")
    struct ReadSyncSuite {
        struct Outcome {
            var firstReadsMet: [Bool]
            var mostReaders: Int
            var mostWriters: Int
            var overlaps: Int
            var writers: Int
        }

        static let threads = 16, laps = 2_000, interval = 100, busyChecks = 20_000

        static func run(
            _ api: any DispatchAPI, readOn readQueue: DispatchAPI.Handle, writeOn writeQueue: DispatchAPI.Handle
        ) -> Outcome {
            let readers = Atomic<Int>(0), writers = Atomic<Int>(0), overlaps = Atomic<Int>(0)
            let readerMeter = ConcurrencyMeter(), writerMeter = ConcurrencyMeter()
            let lap = Atomic<Int>(0), draining = Atomic<Int>(0), written = Atomic<Int>(0), writes = api.makeGroup()
            let firstReads = Rendezvous(parties: threads), met = Recorder<Bool>()
            @Sendable func read(first: Bool) {
                readerMeter.enter()
                readers.add(1, ordering: .sequentiallyConsistent)
                if first { met.append(firstReads.arrive()) }
                usleep(1_000)
                for _ in 0..<busyChecks where writers.load(ordering: .sequentiallyConsistent) != 0 {
                    overlaps.add(1, ordering: .relaxed)
                }
                readers.subtract(1, ordering: .sequentiallyConsistent)
                readerMeter.leave()
            }
            @Sendable func write() {
                writerMeter.enter()
                writers.add(1, ordering: .sequentiallyConsistent)
                usleep(1_000)
                for _ in 0..<busyChecks where readers.load(ordering: .sequentiallyConsistent) != 0 {
                    overlaps.add(1, ordering: .relaxed)
                }
                writers.subtract(1, ordering: .sequentiallyConsistent)
                writerMeter.leave()
                written.add(1, ordering: .relaxed)
                api.leave(writes)
            }
            let workers = (0..<threads).map { _ in
                PThread.spawn {
                    var first = true
                    while true {
                        let index = lap.add(1, ordering: .sequentiallyConsistent).newValue
                        if index > laps { break }
                        api.sync(readQueue) { read(first: first) }
                        first = false
                        if index % interval == 0 {
                            api.enter(writes)
                            api.asyncBarrier(writeQueue, write)
                        }
                        api.sync(readQueue) { read(first: false) }
                        if index % (interval * 10) == 0 {
                            draining.add(1, ordering: .sequentiallyConsistent)
                            usleep(1_000)
                            api.syncBarrier(writeQueue) {}
                            draining.subtract(1, ordering: .sequentiallyConsistent)
                        } else {
                            while draining.load(ordering: .sequentiallyConsistent) > 0 { usleep(200) }
                        }
                    }
                }
            }
            workers.forEach { $0.join() }
            _ = api.wait(group: writes, timeout: patience)
            return Outcome(
                firstReadsMet: met.all, mostReaders: readerMeter.maximum, mostWriters: writerMeter.maximum,
                overlaps: overlaps.load(ordering: .relaxed), writers: written.load(ordering: .relaxed))
        }

        static func check(_ outcome: Outcome, _ setup: String) {
            #expect(
                outcome.firstReadsMet == Array(repeating: true, count: threads),
                "\(setup): the \(threads) threads' first reads were never inside the queue at once")
            #expect(outcome.mostReaders == threads, "\(setup)")
            #expect(outcome.mostWriters == 1, "\(setup): \(outcome.mostWriters) writers ran at once")
            #expect(
                outcome.overlaps == 0, "\(setup): readers and writers saw each other inside \(outcome.overlaps) times")
            #expect(outcome.writers == laps / interval, "\(setup)")
        }

        @Test("writers as barriers on the readers' own concurrent queue", arguments: Implementation.underTest)
        func barriersOnTheQueue(_ implementation: Implementation) {
            with(implementation) { api in
                let queue = api.makeQueue("readsync", concurrent: true)
                Self.check(Self.run(api, readOn: queue, writeOn: queue), "one queue")
            }
        }

        @Test(
            "writers as barriers on the concurrent queue the readers' queue targets",
            arguments: Implementation.underTest
        )
        func barriersOnTheTarget(_ implementation: Implementation) {
            with(implementation) { api in
                let target = api.makeQueue("writebarrierasync", concurrent: true)
                let queue = api.makeQueue("readsync", concurrent: true, qos: nil, target: target)
                api.syncBarrier(target) {}  // libdispatch's fence after a target change
                Self.check(Self.run(api, readOn: queue, writeOn: target), "readers' target")
            }
        }
    }
}

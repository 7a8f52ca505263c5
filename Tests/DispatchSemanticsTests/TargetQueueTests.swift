#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

/// Target-queue hierarchies, suspension, context and finalizer.
@Suite("targets, suspend and resume, context and finalizer")
struct TargetQueueTests {
    /// Blocks spread over `leaves`, each block counted by a meter per group of leaves that must
    /// stay exclusive. Returns the most blocks seen running at once.
    static func peakConcurrency(_ api: any DispatchAPI, leaves: [DispatchAPI.Handle], blocksPerLeaf: Int = 300) -> Int {
        let meter = ConcurrencyMeter(), group = api.makeGroup()
        for round in 0..<blocksPerLeaf {
            for leaf in leaves { api.async(leaf, group: group) { meter.measure(spinning: round % 10 == 0 ? 200 : 20) } }
        }
        #expect(api.wait(group: group, timeout: patience) == .success)
        return meter.maximum
    }

    @Test(
        "queues targeting one serial queue never run together, nor with its own blocks",
        arguments: Implementation.underTest)
    func serialTarget(_ implementation: Implementation) throws {
        with(implementation) { api in
            let top = api.makeQueue("test.top")
            let children = (0..<3).map { api.makeQueue("test.child\($0)", concurrent: false, qos: nil, target: top) }
            let concurrentChild = api.makeQueue("test.cchild", concurrent: true, qos: nil, target: top)
            #expect(Self.peakConcurrency(api, leaves: children + [concurrentChild, top]) == 1)
        }
    }

    @Test(
        "three levels: serial leaves → serial mids → a concurrent top run as wide as the mids allow",
        arguments: Implementation.underTest)
    func threeLevels(_ implementation: Implementation) throws {
        with(implementation) { api in
            let top = api.makeQueue("test.top", concurrent: true, qos: nil, target: nil)
            let midA = api.makeQueue("test.midA", concurrent: false, qos: nil, target: top)
            let midB = api.makeQueue("test.midB", concurrent: false, qos: nil, target: top)
            let leavesA = (0..<2).map { api.makeQueue("test.a\($0)", concurrent: false, qos: nil, target: midA) }
            let leavesB = (0..<2).map { api.makeQueue("test.b\($0)", concurrent: false, qos: nil, target: midB) }
            // Two mids, each serial: at most 2 at once, and 2 is reached (a block under A meets one under B).
            let meet = Rendezvous(parties: 2), met = Recorder<Bool>(), done = api.makeGroup()
            api.async(leavesA[0], group: done) { met.append(meet.arrive()) }
            api.async(leavesB[1], group: done) { met.append(meet.arrive()) }
            #expect(api.wait(group: done, timeout: patience) == .success)
            #expect(met.all == [true, true])
            // Two leaves under one serial mid can never meet.
            let never = Rendezvous(parties: 2), missed = Recorder<Bool>()
            api.async(leavesA[0], group: done) { missed.append(never.arrive(timeout: .milliseconds(100))) }
            api.async(leavesA[1], group: done) { missed.append(never.arrive(timeout: .milliseconds(100))) }
            #expect(api.wait(group: done, timeout: patience) == .success)
            #expect(missed.all.filter { $0 }.count <= 1, "two blocks under one serial queue ran together")
            #expect(Self.peakConcurrency(api, leaves: leavesA + leavesB) <= 2)
            // A serial top over concurrent mids: 1.
            let serialTop = api.makeQueue("test.stop")
            let mids = (0..<2).map { api.makeQueue("test.cmid\($0)", concurrent: true, qos: nil, target: serialTop) }
            let leaves = mids.flatMap { mid in
                (0..<2).map { api.makeQueue("test.l\($0)", concurrent: false, qos: nil, target: mid) }
            }
            #expect(Self.peakConcurrency(api, leaves: leaves + mids) == 1)
        }
    }

    @Test("blocks of a queue with a target run through it in order", arguments: Implementation.underTest)
    func orderThroughTarget(_ implementation: Implementation) throws {
        with(implementation) { api in
            final class Log: @unchecked Sendable { var order: [Int] = [] }
            let top = api.makeQueue("test.top"), log = Log()
            let child = api.makeQueue("test.child", concurrent: false, qos: nil, target: top)
            for index in 0..<5_000 { api.async(child) { log.order.append(index) } }
            var order: [Int] = []
            api.sync(child) { order = log.order }
            #expect(order == Array(0..<5_000))
            var viaTop: [Int] = []
            api.sync(top) { viaTop = log.order }
            #expect(viaTop.count == 5_000)
        }
    }

    @Test("a new target takes effect for blocks submitted after it is set", arguments: Implementation.underTest)
    func retarget(_ implementation: Implementation) throws {
        try with(implementation) { api in
            let first = api.makeQueue("test.first"), second = api.makeQueue("test.second")
            let queue = api.makeQueue("test.q", concurrent: false, qos: nil, target: first)
            let done = Latch()
            api.setTarget(queue, second)
            let labels = Recorder<Bool>()
            // While `second` is held by a sync, the queue's block cannot run: it goes through `second`.
            let hold = Latch(), holding = Latch()
            api.async(second) {
                holding.open(); hold.wait()
            }
            try #require(holding.wait())
            api.async(queue) {
                labels.append(true); done.open()
            }
            #expect(!done.wait(timeout: .milliseconds(100)), "a block ran while its new target was busy")
            hold.open()
            try #require(done.wait())
            #expect(labels.count == 1)
        }
    }

    @Test(
        "suspend and resume are counted; a running block finishes; suspended queues start nothing",
        arguments: Implementation.underTest)
    func suspendResume(_ implementation: Implementation) throws {
        try with(implementation) { api in
            let queue = api.makeQueue("test.suspend")
            let started = Latch(), release = Latch(), ran = Atomic<Int>(0)
            api.async(queue) {
                started.open(); release.wait(); ran.add(1, ordering: .sequentiallyConsistent)
            }
            try #require(started.wait())
            api.suspend(queue)  // while a block runs: it finishes, nothing after it starts
            api.suspend(queue)
            for _ in 0..<10 { api.async(queue) { ran.add(1, ordering: .sequentiallyConsistent) } }
            release.open()
            #expect(eventually { ran.load(ordering: .sequentiallyConsistent) == 1 })
            usleep(50_000)
            #expect(ran.load(ordering: .sequentiallyConsistent) == 1, "a suspended queue started blocks")
            api.resume(queue)
            usleep(50_000)
            #expect(ran.load(ordering: .sequentiallyConsistent) == 1, "one resume undid two suspends")
            api.resume(queue)
            #expect(eventually { ran.load(ordering: .sequentiallyConsistent) == 11 })
        }
    }

    @Test(
        "the finalizer runs exactly once, after the last reference and the last block, with the context",
        arguments: Implementation.underTest)
    func finalizer(_ implementation: Implementation) throws {
        with(implementation) { api in
            let record = UnsafeMutablePointer<FinalizerRecord>.allocate(capacity: 1)
            record.initialize(to: FinalizerRecord())
            defer { record.deinitialize(count: 1); record.deallocate() }
            let gate = Latch()
            let raw = UInt(bitPattern: UnsafeMutableRawPointer(record))
            var release: (@Sendable () -> Void)?
            do {  // the test's handle goes at the end of this scope
                let made = api.makeQueue("test.finalized", context: UnsafeMutableRawPointer(record)) { context in
                    let record = context!.assumingMemoryBound(to: FinalizerRecord.self)
                    record.pointee.blocksSeenAtFinalize.store(
                        record.pointee.blocksRun.load(ordering: .sequentiallyConsistent),
                        ordering: .sequentiallyConsistent)
                    record.pointee.finalized.add(1, ordering: .sequentiallyConsistent)
                }
                release = made.release
                api.async(made.queue) { gate.wait() }
                for _ in 0..<100 {
                    api.async(made.queue) {
                        UnsafeMutableRawPointer(bitPattern: raw)!.assumingMemoryBound(to: FinalizerRecord.self)
                            .pointee.blocksRun.add(1, ordering: .sequentiallyConsistent)
                    }
                }
            }
            release!()  // the last reference the test holds; blocks are still queued
            usleep(20_000)
            #expect(
                record.pointee.finalized.load(ordering: .sequentiallyConsistent) == 0,
                "finalized while blocks were queued")
            gate.open()
            #expect(eventually { record.pointee.finalized.load(ordering: .sequentiallyConsistent) == 1 })
            usleep(20_000)
            #expect(record.pointee.finalized.load(ordering: .sequentiallyConsistent) == 1)
            #expect(record.pointee.blocksSeenAtFinalize.load(ordering: .sequentiallyConsistent) == 100)
        }
    }

    struct FinalizerRecord: ~Copyable {
        let blocksRun = Atomic<Int>(0)
        let finalized = Atomic<Int>(0)
        let blocksSeenAtFinalize = Atomic<Int>(-1)
    }
}

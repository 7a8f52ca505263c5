#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_concur.c: how many blocks a three-level hierarchy of queues (a leaf, its
    /// target, that one's target) runs at once, for async, group async, sync and apply. The
    /// hierarchy is as wide as its narrowest level: one serial level anywhere makes it run one
    /// block at a time; without one, blocks overlap.
    ///
    /// Left out: libdispatch's "wide" queues (a width set with the private
    /// `dispatch_queue_set_width`, which DispatchAPI does not have), and its counts of blocks
    /// finished within a sleep (timing); overlap is proven by blocks meeting at a `Rendezvous`
    /// instead, and exclusion by a `ConcurrencyMeter`. The sync callers are plain threads where
    /// libdispatch used blocks on its overcommit queue: either way the caller runs the block.
    @Suite("dispatch_concur.c: concurrency through queue hierarchies")
    struct ConcurSuite {
        enum Level: String, CaseIterable, Sendable { case global, concurrent, serial }

        /// Leaf → middle → top. A global queue has no target, so above a global level every
        /// level is global too (the hierarchy is then shorter): 15 hierarchies, 11 with a
        /// serial level.
        struct Hierarchy: CustomStringConvertible, Sendable {
            let leaf: Level, middle: Level, top: Level
            var isSerial: Bool { [leaf, middle, top].contains(.serial) }
            var description: String { "\(leaf) → \(middle) → \(top)" }

            static let all: [Hierarchy] = Level.allCases.flatMap { top in
                Level.allCases.filter { top == .global || $0 != .global }.flatMap { middle in
                    Level.allCases.filter { middle == .global || $0 != .global }.map {
                        Hierarchy(leaf: $0, middle: middle, top: top)
                    }
                }
            }

            /// The leaf, and every queue it runs through (kept by the caller while in use).
            func make(_ api: any DispatchAPI) -> (leaf: DispatchAPI.Handle, all: [DispatchAPI.Handle]) {
                func queue(_ level: Level, _ name: String, target: DispatchAPI.Handle?) -> DispatchAPI.Handle {
                    level == .global
                        ? api.global(.default)
                        : api.makeQueue(
                            "test.concur.\(name).\(level)", concurrent: level == .concurrent, qos: nil, target: target)
                }
                let topQueue = queue(top, "top", target: nil)
                let middleQueue = queue(middle, "middle", target: topQueue)
                let leafQueue = queue(leaf, "leaf", target: middleQueue)
                // libdispatch's fence after changing a target: a barrier runs once the change has.
                if leaf != .global { api.syncBarrier(leafQueue) {} }
                return (leafQueue, [leafQueue, middleQueue, topQueue])
            }
        }

        /// Two submitters, queued while the leaf is suspended, each submit four blocks to the
        /// leaf. Through a serial level the submitters never overlap and none of the blocks they
        /// submit runs before both have ended (FIFO: they queue behind them); otherwise the
        /// submitters run at once.
        @Test("async and group async: submitters overlap unless a level is serial", arguments: Implementation.underTest)
        func asyncThroughHierarchies(_ implementation: Implementation) {
            with(implementation) { api in
                for hierarchy in Hierarchy.all {
                    for useGroupAsync in [false, true] {
                        let (leaf, all) = hierarchy.make(api)
                        let submitters = api.makeGroup(), works = api.makeGroup()
                        let meter = ConcurrencyMeter(), meet = Rendezvous(parties: 2), met = Recorder<Bool>()
                        let done = Atomic<Int>(0), doneWhileSubmitting = Recorder<Int>()
                        let submitter: @Sendable () -> Void = {
                            meter.enter()
                            if !hierarchy.isSerial { met.append(meet.arrive()) }
                            for _ in 0..<4 {
                                let work: @Sendable () -> Void = {
                                    usleep(100); done.add(1, ordering: .sequentiallyConsistent)
                                }
                                if useGroupAsync {
                                    api.async(leaf, group: works, work)
                                } else {
                                    api.enter(works);
                                    api.async(leaf) {
                                        work(); api.leave(works)
                                    }
                                }
                            }
                            if hierarchy.isSerial {
                                usleep(5_000)  // a chance for a broken queue to start them
                                doneWhileSubmitting.append(done.load(ordering: .sequentiallyConsistent))
                            }
                            meter.leave()
                        }
                        let suspendable = hierarchy.leaf != .global  // suspending a global queue does nothing
                        if suspendable { api.suspend(leaf) }
                        for _ in 0..<2 {
                            if useGroupAsync {
                                api.async(leaf, group: submitters, submitter)
                            } else {
                                api.enter(submitters);
                                api.async(leaf) {
                                    submitter(); api.leave(submitters)
                                }
                            }
                        }
                        if suspendable { api.resume(leaf) }
                        #expect(api.wait(group: submitters, timeout: patience) == .success, "\(hierarchy)")
                        #expect(api.wait(group: works, timeout: patience) == .success, "\(hierarchy)")
                        #expect(done.load(ordering: .sequentiallyConsistent) == 8, "\(hierarchy)")
                        let how = useGroupAsync ? "group async" : "async"
                        if hierarchy.isSerial {
                            #expect(meter.maximum == 1, "\(how), \(hierarchy): \(meter.maximum) submitters ran at once")
                            #expect(
                                doneWhileSubmitting.all == [0, 0],
                                "\(how), \(hierarchy): blocks queued behind a submitter ran before it ended")
                        } else {
                            #expect(
                                met.all == [true, true], "\(how), \(hierarchy): the two submitters never ran at once")
                        }
                        withExtendedLifetime(all) {}
                    }
                }
            }
        }

        /// Four threads call sync on the leaf at once.
        @Test("sync: callers are inside the leaf at once unless a level is serial", arguments: Implementation.underTest)
        func syncThroughHierarchies(_ implementation: Implementation) {
            with(implementation) { api in
                for hierarchy in Hierarchy.all {
                    let (leaf, all) = hierarchy.make(api)
                    let callers = 4, meter = ConcurrencyMeter(), meet = Rendezvous(parties: callers),
                        met = Recorder<Bool>()
                    let onCaller = Recorder<Bool>()
                    let threads = (0..<callers).map { _ in
                        PThread.spawn {
                            let me = pthread_self()
                            api.sync(leaf) {
                                meter.measure {
                                    onCaller.append(isCurrent(me))
                                    if hierarchy.isSerial { usleep(2_000) } else { met.append(meet.arrive()) }
                                }
                            }
                        }
                    }
                    threads.forEach { $0.join() }
                    #expect(
                        onCaller.all == Array(repeating: true, count: callers),
                        "\(hierarchy): sync ran a block off its caller's thread")
                    if hierarchy.isSerial {
                        #expect(meter.maximum == 1, "\(hierarchy): \(meter.maximum) syncs ran at once")
                    } else {
                        #expect(
                            met.all == Array(repeating: true, count: callers),
                            "\(hierarchy): the \(callers) syncs were never inside at once")
                    }
                    withExtendedLifetime(all) {}
                }
            }
        }

        /// apply over four iterations per worker (at least eight), each spinning 1 ms: the
        /// first two meet when the hierarchy allows it; through a serial level one runs at a time.
        @Test("apply: iterations overlap unless a level is serial", arguments: Implementation.underTest)
        func applyThroughHierarchies(_ implementation: Implementation) {
            with(implementation) { api in
                let iterations = 4 * max(api.workers, 2)
                for hierarchy in Hierarchy.all {
                    let (leaf, all) = hierarchy.make(api)
                    let meter = ConcurrencyMeter(), meet = Rendezvous(parties: 2), met = Recorder<Bool>(),
                        calls = Atomic<Int>(0)
                    api.apply(on: leaf, iterations: iterations, stride: .fixed(1)) { index in
                        meter.measure(spinning: 1_000) {
                            if !hierarchy.isSerial, index < 2 { met.append(meet.arrive()) }
                        }
                        calls.add(1, ordering: .relaxed)
                    }
                    #expect(calls.load(ordering: .relaxed) == iterations, "\(hierarchy)")
                    if hierarchy.isSerial {
                        #expect(meter.maximum == 1, "\(hierarchy): \(meter.maximum) iterations ran at once")
                    } else {
                        #expect(met.all == [true, true], "\(hierarchy): two iterations never ran at once")
                    }
                    withExtendedLifetime(all) {}
                }
            }
        }

        /// From the issue tracker: a global queue is concurrent, and `sync` onto it runs the
        /// block on the caller, beside any other caller's.
        @Test(
            "sync onto a global queue runs on the caller, and two callers are inside it at once",
            arguments: Implementation.underTest)
        func syncOntoGlobal(_ implementation: Implementation) {
            with(implementation) { api in
                let meet = Rendezvous(parties: 2), met = Recorder<Bool>(), onCaller = Recorder<Bool>()
                let threads = (0..<2).map { _ in
                    PThread.spawn {
                        let me = pthread_self()
                        api.sync(api.global(.default)) {
                            onCaller.append(isCurrent(me))
                            met.append(meet.arrive())
                        }
                    }
                }
                threads.forEach { $0.join() }
                #expect(onCaller.all == [true, true], "sync onto the global queue ran the block on another thread")
                #expect(met.all == [true, true], "two syncs onto the global queue were never inside it at once")
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
@testable import FIFODispatch
import PThreadPrimitives
import RuntimeKit
import Testing

/// A queue through a concurrent queue through a concurrent queue: each concurrent level holds a
/// width unit of its own for a block passing through it. Forwarding once overwrote the inner
/// level's unit: that level's barriers then waited forever and the queues were never freed
/// (found by LeakSanitizer on the port of libdispatch's dispatch_concur).
@Suite("FIFODispatch: blocks through nested concurrent queues")
struct NestedConcurrentTests {
    enum Level: String, CaseIterable { case serial, concurrent, global }

    /// Every three-level hierarchy (a global level ends it), each used by `use`, then the runtime
    /// shut down: returns the hierarchies a queue of which outlived its last reference.
    static func outliving(_ use: (FIFODispatch, FIFOQueue, Level) -> Void) -> [String] {
        var leaks: [String] = []
        for top in Level.allCases {
            for middle in Level.allCases where top == .global || middle != .global {
                for leaf in Level.allCases where middle == .global || leaf != .global {
                    let runtime = FIFODispatch(workers: 2)
                    weak var weakTop: FIFOQueue?, weakMiddle: FIFOQueue?, weakLeaf: FIFOQueue?
                    do {
                        func make(_ level: Level, _ target: FIFOQueue?) -> FIFOQueue {
                            level == .global
                                ? runtime.global()
                                : runtime.makeQueue(label: "\(level)", concurrent: level == .concurrent, target: target)
                        }
                        let t = make(top, nil), m = make(middle, t), l = make(leaf, m)
                        if top != .global { weakTop = t }
                        if middle != .global { weakMiddle = m }
                        if leaf != .global { weakLeaf = l }
                        use(runtime, l, leaf)
                    }
                    runtime.shutdown()
                    if weakTop != nil || weakMiddle != nil || weakLeaf != nil {
                        leaks.append("\(leaf) → \(middle) → \(top)")
                    }
                }
            }
        }
        return leaks
    }

    @Test("async, group async, suspended async and sync from 4 threads: every queue is freed after its last reference")
    func queuesAreFreed() {
        let asyncLeaks = Self.outliving { runtime, leaf, level in
            let group = runtime.makeGroup()
            if level != .global { leaf.suspend() }
            for _ in 0..<8 { leaf.async(group: group) { usleep(50) } }
            if level != .global { leaf.resume() }
            _ = group.wait(timeout: .seconds(60))
        }
        #expect(asyncLeaks.isEmpty, "queues outlived async through \(asyncLeaks)")
        let syncLeaks = Self.outliving { _, leaf, _ in
            let threads = (0..<4).map { _ in PThread.spawn { leaf.sync { _ = usleep(200) } } }
            threads.forEach { $0.join() }
        }
        #expect(syncLeaks.isEmpty, "queues outlived sync through \(syncLeaks)")
    }

    @Test("a barrier on a concurrent queue runs after blocks of a concurrent queue through it have passed")
    func barrierAfterNestedBlocks() throws {
        let runtime = FIFODispatch(workers: 2)
        defer { runtime.shutdown() }
        let top = runtime.makeQueue(label: "top", concurrent: true)
        let middle = runtime.makeQueue(label: "middle", concurrent: true, target: top)
        let leaf = runtime.makeQueue(label: "leaf", concurrent: true, target: middle)
        let group = runtime.makeGroup()
        for _ in 0..<100 { leaf.async(group: group) {} }
        #expect(group.wait(timeout: .seconds(60)) == .success)
        for queue in [middle, top] {
            let barrierRan = MutexSemaphore(value: 0)
            queue.asyncBarrier { _ = barrierRan.signal() }
            #expect(
                barrierRan.wait(timeout: .seconds(60)) == .success,
                "the barrier on '\(queue.label)' waits for width units never given back")
        }
    }
}

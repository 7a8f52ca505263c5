import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_priority.c (and its USE_SET_TARGET_QUEUE build, dispatch_priority2): 32
    /// CPU-bound blocks per CPU go to each of the four priorities, background first, high last;
    /// the blocks that finish while half of them are still to come are counted by priority.
    /// High must finish at least as many as low, and background at most as many as default.
    /// The second form submits through concurrent queues created suspended, targeting the global
    /// queues, resumed once everything is queued.
    ///
    /// Scaled: each block spins 2 ms where libdispatch's looped 100,000,000 times. Only the two
    /// inequalities are checked, as in libdispatch: on Linux its bands are threads of their own
    /// told apart by nice values, so the counts are shares of the CPUs, not an order
    /// (PriorityTests has the order FIFODispatch keeps).
    ///
    /// On libdispatch the inequalities are the Linux scheduler's to keep, and on a busy 2-core
    /// VM it often does not (CI: low 58, high 46; alone, 4 runs in 5 missed): libdispatch's own CMake runs
    /// this test only in its extended suite, in its list of tests that "usually pass, but
    /// occasionally fail". So a miss on libdispatch is recorded as an intermittent known issue;
    /// on FIFODispatch, which picks the highest band first, it still fails the test.
    @Suite("dispatch_priority.c: higher priorities finish more")
    struct PrioritySuite {
        static let bands: [Priority] = [.background, .low, .default, .high]

        static func counts(_ api: any DispatchAPI, throughQueues: Bool) -> [Priority: Int] {
            let perBand = 32 * api.workers
            let remaining = Atomic<Int>(bands.count * perBand / 2), done = Atomic<Bool>(false)
            final class Count: Sendable { let value = Atomic<Int>(0) }
            let counted = bands.map { _ in Count() }
            let all = api.makeGroup()
            let queues = bands.map { band -> DispatchAPI.Handle in
                guard throughQueues else { return api.global(band) }
                let queue = api.makeQueue("\(band)", concurrent: true, qos: nil, target: api.global(band))
                api.suspend(queue)
                return queue
            }
            for (index, queue) in queues.enumerated() {
                for _ in 0..<perBand {
                    api.async(queue, group: all) {
                        if done.load(ordering: .relaxed) { return }
                        let end = MonotonicInstant.after(.milliseconds(2))
                        while MonotonicInstant.now < end, !done.load(ordering: .relaxed) {}
                        let left = remaining.subtract(1, ordering: .sequentiallyConsistent).newValue
                        if left >= 0 {
                            counted[index].value.add(1, ordering: .relaxed)
                            if left == 0 { done.store(true, ordering: .relaxed) }
                        }
                    }
                }
            }
            if throughQueues { queues.forEach { api.resume($0) } }
            #expect(api.wait(group: all, timeout: patience) == .success)
            return Dictionary(uniqueKeysWithValues: zip(bands, counted.map { $0.value.load(ordering: .relaxed) }))
        }

        @Test(
            """
            submitted to the global queues: high finishes at least as many as low, \
            background at most as many as default
            """, arguments: Implementation.underTest)
        func globalQueues(_ implementation: Implementation) {
            with(implementation) { api in
                Self.check(
                    Self.counts(api, throughQueues: false), on: implementation,
                    total: Self.bands.count * 32 * api.workers / 2)
            }
        }

        @Test("through suspended concurrent queues targeting them: the same", arguments: Implementation.underTest)
        func throughTargetQueues(_ implementation: Implementation) {
            with(implementation) { api in
                Self.check(
                    Self.counts(api, throughQueues: true), on: implementation,
                    total: Self.bands.count * 32 * api.workers / 2)
            }
        }

        static func check(_ counts: [Priority: Int], on implementation: Implementation, total: Int) {
            let described = bands.map { "\($0): \(counts[$0] ?? 0)" }.joined(separator: ", ")
            #expect(counts.values.reduce(0, +) == total, "\(described)")
            let order = {
                #expect(counts[.low]! <= counts[.high]!, "high priority finished fewer blocks than low: \(described)")
                #expect(
                    counts[.background]! <= counts[.default]!,
                    "background finished more blocks than default: \(described)")
            }
            switch implementation {
            case .fifoDispatch: order()
            case .libdispatch:
                withKnownIssue(
                    "libdispatch's bands are nice values: the scheduler's shares, not an order", isIntermittent: true,
                    order)
            }
        }
    }
}

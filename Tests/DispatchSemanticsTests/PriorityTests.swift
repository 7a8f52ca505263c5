import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

/// Priority bands and quality of service. Each scenario first occupies every worker with a block
/// that waits on a latch, queues work in several bands, then opens the latch: the order in which
/// the queued work starts shows which band is served first.
@Suite("priorities and quality of service")
struct PriorityTests {
    /// Occupies `api.workers` threads until the returned latch opens; returns once all are busy.
    static func occupyWorkers(_ api: any DispatchAPI) -> Latch {
        let release = Latch(), busy = Rendezvous(parties: api.workers + 1)
        for _ in 0..<api.workers {
            api.async(api.global(.high)) {
                _ = busy.arrive(); release.wait()
            }
        }
        _ = busy.arrive()
        return release
    }

    @Test("higher global queues are served first", arguments: Implementation.underTest)
    func bands(_ implementation: Implementation) throws {
        try with(implementation, workers: 1) { api in
            let order = Recorder<Priority>(), group = api.makeGroup()
            let release = Self.occupyWorkers(api)
            for priority in [Priority.background, .low, .default, .high] {
                for _ in 0..<10 { api.async(api.global(priority), group: group) { order.append(priority) } }
            }
            release.open()
            try #require(api.wait(group: group, timeout: patience) == .success)
            let started = order.all
            switch implementation {
            case .fifoDispatch:
                #expect(started == [.high, .default, .low, .background].flatMap { Array(repeating: $0, count: 10) })
            case .libdispatch:
                // libdispatch on Linux does not hold the other bands back while the occupied
                // threads are busy: its thread-pool emulation starts threads for them, so they run
                // in no fixed order (seen: background first in one run, high first in another).
                // Only that every block ran is checked; the documents' order is FIFODispatch's.
                #expect(started.count == 40)
            }
        }
    }

    @Test("a submission's quality of service raises its queue while it waits", arguments: Implementation.underTest)
    func override(_ implementation: Implementation) throws {
        try with(implementation, workers: 1) { api in
            let order = Recorder<String>(), group = api.makeGroup()
            let slow = api.makeQueue("test.background-queue", concurrent: false, qos: .background)
            let release = Self.occupyWorkers(api)
            for _ in 0..<10 { api.async(api.global(.default), group: group) { order.append("default") } }
            api.async(slow, qos: .high, group: group) { order.append("raised") }
            release.open()
            try #require(api.wait(group: group, timeout: patience) == .success)
            switch implementation {
            case .fifoDispatch:
                #expect(order.all.first == "raised", "\(order.all)")
            case .libdispatch:
                // As above: no cross-band order to observe on Linux (seen both first and last).
                #expect(order.count == 11)
            }
        }
    }
}

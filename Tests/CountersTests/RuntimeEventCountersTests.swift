@testable import Counters
import CThreadSlots
import RuntimeKit
import Testing

/// Which backend's events a case reads: its own where it counts them, a reason everywhere else.
@Suite("runtime event counters")
struct RuntimeEventCountersTests {
    @Test(
        """
        work-stealing reads its own events and both-backend ones; \
        fifo-dispatch's are unavailable, naming who counts them
        """)
    func ownEventsOnly() {
        let counters = RuntimeEventCounters(backend: "work-stealing")
        #expect(
            Set(counters.metrics)
                == Set(RuntimeEvent.allCases.filter { $0.countedBy.contains("work-stealing") }.map(\.metricName)))
        #expect(counters.metrics.contains("events.steals") && counters.metrics.contains("events.parks"))
        #expect(counters.unavailable["events.sync-slow"] == "work-stealing has no such event (fifo-dispatch counts it)")
        #expect(counters.unavailable["events.steals"] == nil)
        // Reading writes one finite value per metric.
        let values = counters.read()
        #expect(values.count == counters.metrics.count && values.values.allSatisfy { $0.isFinite && $0 >= 0 })
    }

    @Test(
        "a backend that does not count its events, and a case without a backend, read no event: every one has a reason")
    func othersHaveReasons() {
        for backend in ["libdispatch", "pthread-mutex", "swift-concurrency", "libdispatch-c"] {
            let counters = RuntimeEventCounters(backend: backend)
            #expect(counters.metrics.isEmpty)
            #expect(counters.unavailable.count == RuntimeEvent.allCases.count)
            #expect(
                counters.unavailable.values.allSatisfy {
                    $0 == "\(backend) does not count its own scheduling events (only our own backends do)"
                })
        }
        #expect(
            RuntimeEventCounters(backend: "none").unavailable.values.allSatisfy { $0 == "the case uses no backend" })
        #expect(RuntimeEventCounters().metrics.isEmpty)
    }

    @Test("every event is described once in the catalogue, and every counting backend counts some")
    func catalogue() {
        #expect(RuntimeEventCounters.catalogue.map(\.name) == RuntimeEvent.allCases.map(\.metricName))
        #expect(Set(RuntimeEvent.allCases.flatMap(\.countedBy)) == Set(RuntimeEvent.countingBackends))
        #expect(RuntimeEvent.allCases.count <= Int(RB_SLOT_KINDS), "CThreadSlots.h's RB_SLOT_KINDS bounds the events")
    }
}

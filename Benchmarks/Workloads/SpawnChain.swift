import Harness
import RuntimeKit
import Synchronization

/// `spawn`, pattern `chain`: the measuring thread submits the first link; every link takes one
/// from `linksLeft` and submits the next with `runtime.async` from inside the pool, the last one
/// wakes the measuring thread. One operation is one link.
///
/// `@unchecked Sendable`: `link` is written in `init`, before any block can read it, and in
/// `finish()` once every link is known to have run exactly once; the rest is immutable or atomic.
final class SpawnChain<R: ConcurrencyRuntime>: MeasuredOperation, @unchecked Sendable {
    private let runtime: R
    private let completion: SpawnCompletion
    private let latch: CountdownLatch
    /// Links still to run in this `run`. A read-modify-write, not a load and a store, so a chain
    /// that a wrong backend forks in two still counts down to zero and stops (each half then
    /// arrives, one arrival too many, which `finish()` reports).
    private let linksLeft = Atomic<Int>(0)
    /// Built once, so a link allocates nothing of ours. It holds `self`: `finish()` breaks the cycle.
    private var link: (@Sendable () -> Void)?

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        completion = SpawnCompletion(units: "links of a chain", timeout: timeout)
        latch = completion.latch
        link = { [self] in step() }
    }

    private func step() {
        // relaxed: consecutive links are ordered by the submission between them; the latch
        // publishes the last one to the measuring thread.
        if linksLeft.wrappingSubtract(1, ordering: .relaxed).newValue > 0 {
            runtime.async(link!)
        } else {
            latch.arrive()
        }
    }

    func run(_ count: Int) throws {
        try completion.run(count, arrivals: 1, submit: {
            linksLeft.wrappingAdd(count, ordering: .relaxed)
            runtime.async(link!)
        }, done: { count - linksLeft.load(ordering: .relaxed) })
    }

    func finish() throws {
        runtime.shutdown()
        try completion.verify([(linksLeft.load(ordering: .relaxed), "links left to run")])
        link = nil  // only now: after a failure a stray link may still be running and need it
    }
}

import Harness
import Results
import RuntimeKit
import Synchronization

/// `spawn`, pattern `queue-pingpong`: one message bounces between two serial queues, each block
/// submitting the next to the other queue with `async`. One operation is one hop (one block run
/// on a queue). At most one block of the two queues is ever pending, so this is the latency of a
/// hand-off between queues, not their throughput.
///
/// `@unchecked Sendable`: the two blocks are written in `init`, before any can run, and in
/// `finish()` once every hop is known to have run exactly once; the rest is immutable or atomic.
final class SpawnQueuePingPong<R: ConcurrencyRuntime>: MeasuredOperation, @unchecked Sendable {
    private let runtime: R
    private let ping: R.Queue
    private let pong: R.Queue
    private let completion: SpawnCompletion
    private let latch: CountdownLatch
    /// Hops still to run in this `run`; a read-modify-write for the reason given in `SpawnChain`.
    private let hopsLeft = Atomic<Int>(0)
    /// The block that runs on `ping` (and sends to `pong`) and its mirror image, built once.
    /// They hold `self`: `finish()` breaks the cycle.
    private var onPing: (@Sendable () -> Void)?
    private var onPong: (@Sendable () -> Void)?

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        ping = runtime.makeSerialQueue(label: "spawn.ping")
        pong = runtime.makeSerialQueue(label: "spawn.pong")
        completion = SpawnCompletion(units: "hops between two serial queues", timeout: timeout)
        latch = completion.latch
        onPing = { [self] in if hopOn() { pong.async(onPong!) } }
        onPong = { [self] in if hopOn() { ping.async(onPing!) } }
    }

    /// Counts one hop; true when the message goes on, false (after waking the measuring thread)
    /// when this was the run's last hop.
    private func hopOn() -> Bool {
        // relaxed: consecutive hops are ordered by the submission between them.
        if hopsLeft.wrappingSubtract(1, ordering: .relaxed).newValue > 0 { return true }
        latch.arrive()
        return false
    }

    func run(_ count: Int) throws {
        try completion.run(
            count, arrivals: 1,
            submit: {
                hopsLeft.wrappingAdd(count, ordering: .relaxed)
                ping.async(onPing!)
            }, done: { count - hopsLeft.load(ordering: .relaxed) })
    }

    func finish() throws {
        runtime.shutdown()
        try completion.verify([(hopsLeft.load(ordering: .relaxed), "hops left to run")])
        onPing = nil
        onPong = nil
    }
}

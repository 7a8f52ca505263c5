import Harness
import PThreadPrimitives
import Results

/// The latencies a swift-async pattern keeps of its own operations (a hop, a resume), read by the
/// measuring thread as `<prefix>.p50` and `.p99`.
///
/// `@unchecked Sendable`: one operation at a time writes the histogram, each after the one before
/// it has finished (a hop starts where the previous one arrived; a resume is awaited before the
/// next is asked for), and the executor's hand-off orders each write before the next. The
/// measuring thread resets and reads it only between runs, after the run's task has arrived at
/// the latch, whose release orders every write before the read.
final class AsyncLatencies: @unchecked Sendable {
    let prefix: String
    private var histogram = LatencyHistogram()

    init(prefix: String) { self.prefix = prefix }

    /// Keeps the time from `start` (a `MonotonicInstant`'s nanoseconds) to now.
    @inline(__always)
    func record(since start: Int64) {
        histogram.record(nanoseconds: MonotonicInstant.now.nanoseconds - start)
    }

    func reset() { histogram.reset() }

    var metrics: [String: WorkloadMetric] { histogram.percentileMetrics(prefix: prefix) }
}

/// One side of actor-hop: an actor that answers its partner's call, and that calls its partner in
/// turn. `HopActor` runs on a backend's serial executor, `DefaultHopActor` on Swift's own.
protocol HopSide: Actor {
    /// A hop arriving here. A timed one (`sentAt` > 0) keeps its latency from `sentAt` and returns
    /// the time the hop back leaves; an untimed one returns 0.
    func receive(sentAt: Int64) -> Int64
    /// Hops received.
    var received: Int { get }
}

/// One round trip in `hopTimingInterval` is timed, both legs: on Swift's default executors a hop
/// costs about as much as a clock read, so timing every hop would double ns/op; one in 8 still
/// gives every sample thousands of latencies.
let hopTimingInterval = 8

extension HopSide {
    /// `rounds` round trips to `partner` and back, each leg a hop, one round in
    /// `hopTimingInterval` timed into `latencies`; returns the hops made (2 per round).
    func rally(with partner: some HopSide, rounds: Int, latencies: AsyncLatencies, tally: AsyncTally) async -> Int {
        for round in 0..<rounds {
            if round % hopTimingInterval == 0 {
                let leftAt = await partner.receive(sentAt: MonotonicInstant.now.nanoseconds)
                latencies.record(since: leftAt)
            } else {
                _ = await partner.receive(sentAt: 0)
            }
            tally.advanced(to: round, of: rounds)
        }
        return 2 * rounds
    }
}

actor HopActor: HopSide {
    private let executor: any SerialExecutor
    private let latencies: AsyncLatencies
    private(set) var received = 0

    init(executor: any SerialExecutor, latencies: AsyncLatencies) {
        self.executor = executor
        self.latencies = latencies
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func receive(sentAt: Int64) -> Int64 {
        received &+= 1
        guard sentAt > 0 else { return 0 }
        latencies.record(since: sentAt)
        return MonotonicInstant.now.nanoseconds
    }
}

actor DefaultHopActor: HopSide {
    private let latencies: AsyncLatencies
    private(set) var received = 0

    init(latencies: AsyncLatencies) { self.latencies = latencies }

    func receive(sentAt: Int64) -> Int64 {
        received &+= 1
        guard sentAt > 0 else { return 0 }
        latencies.record(since: sentAt)
        return MonotonicInstant.now.nanoseconds
    }
}

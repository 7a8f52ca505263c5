import Harness
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// `semaphore`, pattern `pingpong`: two dedicated threads hand a token back and forth, each
/// waiting on its own semaphore (value 0) and signalling the other's. One operation is one
/// hand-off; even-numbered hand-offs go from side 0 to side 1, odd ones back. Every hand-off
/// blocks its receiver, so this is the semaphore's slow path: a wake-up through the kernel.
///
/// Hand-off latency: the sender reads the clock just before `signal()`, the receiver just after
/// its `wait` returns; the difference goes into the receiver's histogram. The two clock reads
/// (vDSO, tens of nanoseconds) are in ns/op too, for every kind alike. `handoff_ns.p50` and
/// `.p99` are over the samples only.
///
/// Verified: each receiver finds the number of the hand-off it expects in `token` (a semaphore
/// that lets a wait through without a signal is caught), each side received exactly what the
/// other sent, and neither semaphore has a permit left. A receiver waits at most `timeout`, so a
/// lost signal fails the case with the hand-off that never arrived.
///
/// `@unchecked Sendable`: what the sides record is touched by their own thread during a round
/// and by the measuring thread between rounds (`ThreadCrew` orders the two); the rest is
/// immutable or atomic.
final class SemaphorePingPong<S: CountingSemaphore>: MeasuredOperation, @unchecked Sendable {
    /// One side's own records.
    private final class Side: @unchecked Sendable {
        /// Hand-offs received. Only this side writes it; an atomic so the measuring thread can
        /// read progress mid-round (relaxed: a count, nothing is published through it).
        let received = Atomic<Int>(0)
        var sent = 0
        var latencies = LatencyHistogram()
    }

    private let supply: SemaphoreSupply<S>
    /// `mailboxes[s]` is the semaphore side `s` waits on; the other side signals it.
    private let mailboxes: [S]
    private let sides = [Side(), Side()]
    /// The number of the last hand-off sent, and when it was sent (MonotonicInstant ns).
    private let token = Atomic<Int>(-1)
    private let sentAt = Atomic<Int64>(0)
    private let timeout: Duration
    private var crew: ThreadCrew?

    init(supply: SemaphoreSupply<S>, timeout: Duration) {
        self.supply = supply
        self.timeout = timeout
        mailboxes = [supply.make(0), supply.make(0)]
        crew = ThreadCrew(members: 2, timeout: timeout) { [self] side, round in play(side: side, round) }
    }

    private func play(side: Int, _ round: ThreadCrew.Round) -> WorkloadError? {
        let me = sides[side], inbox = mailboxes[side], outbox = mailboxes[1 - side]
        var received = me.received.load(ordering: .relaxed)
        for handOff in round.operations {
            if handOff & 1 == side {
                sentAt.store(MonotonicInstant.now.nanoseconds, ordering: .relaxed)
                // releasing: the receiver that reads this number reads this hand-off's stamp
                // (stored just before) with it, not the previous one.
                token.store(handOff, ordering: .releasing)
                outbox.signal()
                me.sent += 1
                continue
            }
            guard inbox.wait(timeout: timeout) == .success else {
                return .verificationFailed("hand-off \(handOff) (side \(1 - side) to side \(side)) never arrived within \(timeout): a signal was lost")
            }
            let arrived = MonotonicInstant.now.nanoseconds
            // acquiring: pairs with the sender's releasing store (see above).
            let last = token.load(ordering: .acquiring)
            guard last == handOff else {
                return .verificationFailed("side \(side) woke for hand-off \(handOff) but the last one sent was \(last): the semaphore let a wait through without a signal")
            }
            me.latencies.record(nanoseconds: arrived - sentAt.load(ordering: .relaxed))
            received += 1
            me.received.store(received, ordering: .relaxed)
        }
        return nil
    }

    func run(_ count: Int) throws {
        try crew?.run(count) { sides[0].received.load(ordering: .relaxed) + sides[1].received.load(ordering: .relaxed) }
    }

    func beginSamples() {
        for side in sides { side.latencies.reset() }
    }

    var workloadMetrics: [String: WorkloadMetric] {
        sides[0].latencies.merged(with: sides[1].latencies).percentileMetrics(prefix: "handoff_ns")
    }

    func finish() throws {
        guard let crew else { return }
        crew.stop()
        self.crew = nil  // the members held `self`
        let leftovers = mailboxes.map { $0.permitsRestoring(initialValue: 0) }
        supply.close()
        if let spent = crew.spent { throw spent }
        var problems: [String] = []
        let sent = sides.map(\.sent), received = sides.map { $0.received.load(ordering: .relaxed) }
        if sent[0] + sent[1] != crew.completed { problems.append("\(sent[0] + sent[1]) hand-offs sent, \(crew.completed) expected") }
        for side in 0..<2 where received[side] != sent[1 - side] {
            problems.append("side \(side) received \(received[side]) of the \(sent[1 - side]) hand-offs side \(1 - side) sent")
        }
        for side in 0..<2 where leftovers[side] > 0 {
            problems.append("side \(side)'s semaphore kept a permit nobody waited for")
        }
        guard problems.isEmpty else { throw WorkloadError.verificationFailed("pingpong: " + problems.joined(separator: "; ")) }
    }
}

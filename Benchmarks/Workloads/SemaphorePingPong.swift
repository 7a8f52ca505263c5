import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// `semaphore`, patterns `pingpong`, `pingpong-one-cpu`, `pingpong-two-cpus` and
/// `pingpong-oversubscribed`: pairs of dedicated threads hand a token back and forth, each thread
/// waiting on its own semaphore (value 0) and signalling its partner's. `pingpong` is one pair,
/// placed by the kernel, which puts the two sides on one CPU in some processes and on two in
/// others: two modes far apart. The pinned patterns fix each (`sides`: the CPUs of side 0 and side
/// 1), so the mode is a setting a reader can compare. `pingpong-oversubscribed` is 2 × CPUs pairs
/// at once, four threads per CPU, so a waiter that spins instead of sleeping holds a CPU its
/// partner (or another pair) needs. One operation is one hand-off of any pair; a round's hand-offs are shared
/// evenly among the pairs. In a pair, even-numbered hand-offs go from side 0 to side 1, odd ones
/// back. Every hand-off blocks its receiver, so this is the semaphore's slow path: a wake-up
/// through the kernel.
///
/// Hand-off latency: the sender reads the clock just before `signal()`, the receiver just after
/// its `wait` returns; the difference goes into the receiver's histogram. The two clock reads
/// (vDSO, tens of nanoseconds) are in ns/op too, for every kind alike. `handoff_ns.p50` and
/// `.p99` are over the samples only, all pairs together.
///
/// Verified, pair by pair: each receiver finds the number of the hand-off it expects in its
/// pair's `token` (a semaphore that lets a wait through without a signal is caught), each side
/// received exactly what the other sent, and neither semaphore has a permit left. A receiver
/// waits at most `timeout`, so a lost signal fails the case with the hand-off that never arrived.
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
        /// The pair's hand-offs before this round: both sides advance it by the same share.
        var played = 0
        var latencies = LatencyHistogram()
    }

    /// Two sides and what passes between them.
    private final class Pair: @unchecked Sendable {
        /// `mailboxes[s]` is the semaphore side `s` waits on; the other side signals it.
        let mailboxes: [S]
        let sides = [Side(), Side()]
        /// The number of the pair's last hand-off sent, and when it was sent (MonotonicInstant ns).
        let token = Atomic<Int>(-1)
        let sentAt = Atomic<Int64>(0)

        init(_ supply: SemaphoreSupply<S>) { mailboxes = [supply.make(0), supply.make(0)] }
    }

    private let supply: SemaphoreSupply<S>
    private let pairs: [Pair]
    private let timeout: Duration
    private var crew: ThreadCrew?

    /// `sides`: nil to let the kernel place the threads, or the CPUs side 0 and side 1 of every
    /// pair are pinned to.
    init(supply: SemaphoreSupply<S>, pairs: Int = 1, sides: [[Int]]? = nil, timeout: Duration) {
        precondition(pairs >= 1, "ping-pong needs at least one pair")
        precondition(sides == nil || sides!.count == 2, "one CPU set per side")
        self.supply = supply
        self.timeout = timeout
        self.pairs = (0..<pairs).map { _ in Pair(supply) }
        let cpus = sides.map { sides in (0..<(2 * pairs)).map { sides[$0 % 2] } }
        crew = ThreadCrew(members: 2 * pairs, timeout: timeout, cpus: cpus) { [self] member, round in
            play(pair: member / 2, side: member % 2, round)
        }
    }

    private func play(pair index: Int, side: Int, _ round: ThreadCrew.Round) -> WorkloadError? {
        let pair = pairs[index], me = pair.sides[side], inbox = pair.mailboxes[side], outbox = pair.mailboxes[1 - side]
        let share = round.share(of: index, among: pairs.count)
        defer { me.played += share }
        var received = me.received.load(ordering: .relaxed)
        for handOff in me.played..<(me.played + share) {
            if handOff & 1 == side {
                pair.sentAt.store(MonotonicInstant.now.nanoseconds, ordering: .relaxed)
                // releasing: the receiver that reads this number reads this hand-off's stamp
                // (stored just before) with it, not the previous one.
                pair.token.store(handOff, ordering: .releasing)
                outbox.signal()
                me.sent += 1
                continue
            }
            guard inbox.wait(timeout: timeout) == .success else {
                return .verificationFailed(
                    "pair \(index): hand-off \(handOff) (side \(1 - side) to side \(side)) "
                        + "never arrived within \(timeout): a signal was lost")
            }
            let arrived = MonotonicInstant.now.nanoseconds
            // acquiring: pairs with the sender's releasing store (see above).
            let last = pair.token.load(ordering: .acquiring)
            guard last == handOff else {
                return .verificationFailed(
                    "pair \(index): side \(side) woke for hand-off \(handOff) but the last one sent was \(last): "
                        + "the semaphore let a wait through without a signal")
            }
            me.latencies.record(nanoseconds: arrived - pair.sentAt.load(ordering: .relaxed))
            received += 1
            me.received.store(received, ordering: .relaxed)
        }
        return nil
    }

    private var allSides: [Side] { pairs.flatMap(\.sides) }

    func run(_ count: Int) throws {
        try crew?.run(count) { allSides.reduce(0) { $0 + $1.received.load(ordering: .relaxed) } }
    }

    func beginSamples() {
        for side in allSides { side.latencies.reset() }
    }

    var workloadMetrics: [String: WorkloadMetric] {
        allSides.dropFirst().reduce(allSides[0].latencies) { $0.merged(with: $1.latencies) }.percentileMetrics(
            prefix: "handoff_ns")
    }

    func finish() throws {
        guard let crew else { return }
        crew.stop()
        self.crew = nil  // the members held `self`
        let leftovers = pairs.map { pair in pair.mailboxes.map { $0.permitsRestoring(initialValue: 0) } }
        supply.close()
        if let spent = crew.spent { throw spent }
        var problems: [String] = []
        let sentInAll = allSides.reduce(0) { $0 + $1.sent }
        if sentInAll != crew.completed { problems.append("\(sentInAll) hand-offs sent, \(crew.completed) expected") }
        for (index, pair) in pairs.enumerated() {
            let name = pairs.count == 1 ? "" : "pair \(index) "
            let sent = pair.sides.map(\.sent), received = pair.sides.map { $0.received.load(ordering: .relaxed) }
            for side in 0..<2 where received[side] != sent[1 - side] {
                problems.append(
                    "\(name)side \(side) received \(received[side]) of the \(sent[1 - side]) hand-offs "
                        + "side \(1 - side) sent")
            }
            for side in 0..<2 where leftovers[index][side] > 0 {
                problems.append("\(name)side \(side)'s semaphore kept a permit nobody waited for")
            }
        }
        guard problems.isEmpty else {
            throw WorkloadError.verificationFailed("pingpong: " + problems.joined(separator: "; "))
        }
    }
}

import Harness
import Results
import RuntimeKit
import Synchronization

/// `spawn`, pattern `queue-ring`: 1,000 serial queues in a ring and several messages going round
/// it, each hop a block that runs on one queue and submits the message's next hop to the next
/// queue with `async`. One operation is one hop. Unlike the ping-pong, several queues are
/// runnable at once, so this is the throughput of many queues sharing the pool.
///
/// A `run` of `count` hops splits them between the messages (some get one more), starts each
/// from the queue where it stopped last time, and waits for every message to finish its share.
final class SpawnQueueRing<R: ConcurrencyRuntime>: MeasuredOperation {
    /// The design brief's "many serial queues": far more queues than workers, so a hop nearly
    /// always lands on an idle queue and has to be scheduled on the pool, not drained in a batch.
    static var queueCount: Int { 1_000 }
    /// More messages than workers on the machines this runs on, so no worker idles for want of
    /// a runnable queue; few next to 1,000 queues, so messages rarely wait behind one another.
    static var messagesInFlight: Int { 8 }

    private let runtime: R
    private let completion: SpawnCompletion
    private let messages: [RingMessage<R.Queue>]

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        let completion = SpawnCompletion(
            units: "hops around a ring of \(Self.queueCount) serial queues", timeout: timeout)
        self.completion = completion
        let queues = (0..<Self.queueCount).map { runtime.makeSerialQueue(label: "spawn.ring.\($0)") }
        let spacing = Self.queueCount / Self.messagesInFlight
        messages = (0..<Self.messagesInFlight).map {
            RingMessage(queues: queues, start: $0 * spacing, latch: completion.latch)
        }
    }

    func run(_ count: Int) throws {
        let moving = messages.prefix(min(count, messages.count))
        try completion.run(
            count, arrivals: moving.count,
            submit: {
                for (rank, message) in moving.enumerated() {
                    message.start(hops: count / moving.count + (rank < count % moving.count ? 1 : 0))
                }
            }, done: { count - moving.reduce(0) { $0 + $1.hopsLeft } })
    }

    func finish() throws {
        runtime.shutdown()
        try completion.verify([(messages.reduce(0) { $0 + $1.hopsLeft }, "hops left to run")])
        messages.forEach { $0.retire() }
    }
}

/// One message of the ring: where it is, how many hops it has left in this run, and its hop
/// block, built once (so a hop allocates nothing of ours).
///
/// `@unchecked Sendable`: `hop` is written in `init`, before any block can read it, and in
/// `retire()` once every hop is known to have run exactly once; the rest is immutable or atomic.
final class RingMessage<Queue: SerialQueue>: @unchecked Sendable {
    private let queues: [Queue]
    private let latch: CountdownLatch
    /// The queue the message is on. Atomic only so a wrong backend that runs a hop twice causes
    /// no undefined behaviour; a relaxed load and store cost what plain ones do.
    private let position: Atomic<Int>
    /// A read-modify-write for the reason given in `SpawnChain`.
    private let remaining = Atomic<Int>(0)
    private var hop: (@Sendable () -> Void)?

    init(queues: [Queue], start: Int, latch: CountdownLatch) {
        self.queues = queues
        self.latch = latch
        position = Atomic(start)
        hop = { [self] in step() }
    }

    /// Hops this message has still to make in the current run.
    var hopsLeft: Int { remaining.load(ordering: .relaxed) }

    /// Gives the message `hops` more hops and submits the first, on the queue it is on.
    func start(hops: Int) {
        remaining.wrappingAdd(hops, ordering: .relaxed)
        queues[position.load(ordering: .relaxed)].async(hop!)
    }

    private func step() {
        // relaxed: a message's hops are ordered by the submission between them; the latch
        // publishes the last one to the measuring thread.
        guard remaining.wrappingSubtract(1, ordering: .relaxed).newValue > 0 else {
            latch.arrive()
            return
        }
        var next = position.load(ordering: .relaxed) + 1
        if next == queues.count { next = 0 }
        position.store(next, ordering: .relaxed)
        queues[next].async(hop!)
    }

    /// Breaks the cycle between the message and its hop block.
    func retire() { hop = nil }
}

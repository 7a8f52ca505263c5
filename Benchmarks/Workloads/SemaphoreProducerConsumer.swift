import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Synchronization

/// `semaphore`, pattern `producer-consumer`: the bounded buffer. A producer and a consumer thread
/// pass numbered items through `slots` (16) slots: `freeSlots` (value 16) counts the slots the
/// producer may fill, `filledSlots` (value 0) the items the consumer may take, and a pthread
/// mutex guards the buffer's indices, as in the textbook. One operation is one item passed.
/// The producer runs up to 16 items ahead, so the semaphores block only when the buffer runs
/// full or empty: a mix of fast paths and hand-offs.
///
/// Items are numbered over the whole case. Verified: the consumer saw every item exactly once
/// and in order (each is the number due next), both sides counted every operation, the indices
/// agree, and the semaphores hold 16 free and no filled permits at the end. Every wait has a
/// deadline, so a lost signal fails the case with the item that never came.
///
/// `@unchecked Sendable`: the buffer and its indices are under `lock`; what only the consumer
/// writes (`misfits`, `firstMisfit`) is read by the measuring thread after the crew has stopped;
/// the rest is immutable or atomic.
final class SemaphoreProducerConsumer<S: CountingSemaphore>: MeasuredOperation, @unchecked Sendable {
    static var slots: Int { 16 }
    static var producer: Int { 0 }

    private let supply: SemaphoreSupply<S>
    private let freeSlots: S
    private let filledSlots: S
    private let lock = PThreadMutex()
    /// `slots` items, under `lock`; -1 until first written, so a read of a slot never filled shows.
    private let buffer: UnsafeMutablePointer<Int>
    private var writeIndex = 0
    private var readIndex = 0
    /// Items produced and consumed. Each written by its one side only, with relaxed stores
    /// (counts, read for progress and after the crew has stopped; nothing is published
    /// through them: the items travel under `lock`).
    private let produced = Atomic<Int>(0)
    private let consumed = Atomic<Int>(0)
    /// Items that were not the number due, and the first of them.
    private var misfits = 0
    private var firstMisfit: (due: Int, got: Int)?
    private let timeout: Duration
    private var crew: ThreadCrew?

    init(supply: SemaphoreSupply<S>, timeout: Duration) {
        self.supply = supply
        self.timeout = timeout
        freeSlots = supply.make(Self.slots)
        filledSlots = supply.make(0)
        buffer = .allocate(capacity: Self.slots)
        buffer.initialize(repeating: -1, count: Self.slots)
        crew = ThreadCrew(members: 2, timeout: timeout) { [self] member, round in
            member == Self.producer ? produce(round) : consume(round)
        }
    }

    deinit { buffer.deallocate() }

    private func produce(_ round: ThreadCrew.Round) -> WorkloadError? {
        var done = produced.load(ordering: .relaxed)
        for item in round.operations {
            guard freeSlots.wait(timeout: timeout) == .success else {
                return .verificationFailed(
                    "the producer waited \(timeout) for a free slot for item \(item): a slot was never given back")
            }
            lock.withLock {
                buffer[writeIndex % Self.slots] = item
                writeIndex += 1
            }
            filledSlots.signal()
            done += 1
            produced.store(done, ordering: .relaxed)
        }
        return nil
    }

    private func consume(_ round: ThreadCrew.Round) -> WorkloadError? {
        var done = consumed.load(ordering: .relaxed)
        for due in round.operations {
            guard filledSlots.wait(timeout: timeout) == .success else {
                return .verificationFailed(
                    "the consumer waited \(timeout) for item \(due): a filled slot was never signalled")
            }
            let item = lock.withLock {
                let item = buffer[readIndex % Self.slots]
                readIndex += 1
                return item
            }
            freeSlots.signal()
            if item != due {
                misfits += 1
                if firstMisfit == nil { firstMisfit = (due, item) }
            }
            done += 1
            consumed.store(done, ordering: .relaxed)
        }
        return nil
    }

    func run(_ count: Int) throws {
        try crew?.run(count) { produced.load(ordering: .relaxed) + consumed.load(ordering: .relaxed) }
    }

    func finish() throws {
        guard let crew else { return }
        crew.stop()
        self.crew = nil  // the producer and consumer held `self`
        let free = freeSlots.permitsRestoring(initialValue: Self.slots)
        let filled = filledSlots.permitsRestoring(initialValue: 0)
        supply.close()
        if let spent = crew.spent { throw spent }
        var problems: [String] = []
        if let firstMisfit {
            problems.append(
                "\(misfits) items out of order or repeated; the first: "
                    + "item \(firstMisfit.got) where \(firstMisfit.due) was due")
        }
        let expected = crew.completed
        let made = produced.load(ordering: .relaxed), taken = consumed.load(ordering: .relaxed)
        if made != expected || taken != expected {
            problems.append("\(made) items produced and \(taken) consumed, \(expected) expected")
        }
        let (written, read) = lock.withLock { (writeIndex, readIndex) }
        if written != read { problems.append("\(written) slots written, \(read) read") }
        if free != Self.slots {
            problems.append(
                "\(free > Self.slots ? "more than \(Self.slots)" : "\(free)") free slots at the end, not \(Self.slots)")
        }
        if filled != 0 { problems.append("the filled-slots semaphore kept a permit with no item behind it") }
        guard problems.isEmpty else {
            throw WorkloadError.verificationFailed("producer-consumer: " + problems.joined(separator: "; "))
        }
    }
}

import Synchronization

/// The critical sections of one queue-vs-lock run, handed to the contending threads in small
/// chunks, and how many each thread took. A thread that keeps winning the guard keeps claiming
/// chunks, so the shares say how fair the guard was; a fixed split would hide that.
///
/// `@unchecked Sendable`: slot `i` of `taken` is written by participant `i` only, between its
/// start signal and its arrival at the run's latch, and read by the measuring thread after that
/// latch, whose acquire-release chain orders every write before the read.
final class SectionQuota: @unchecked Sendable {
    /// Sections per claim: one atomic read-modify-write per 16 sections keeps the quota's own
    /// cache-line traffic small next to the guard's, and the shares fine-grained.
    static let chunk = 16

    let participants: Int
    private let remaining = Atomic<Int>(0)
    private let taken: UnsafeMutablePointer<Int>

    init(participants: Int) {
        precondition(participants >= 1, "at least one thread contends")
        self.participants = participants
        taken = .allocate(capacity: participants)
        taken.initialize(repeating: 0, count: participants)
    }

    deinit { taken.deallocate() }

    /// Sets the run's quota. Call before starting the participants: relaxed is enough, because the
    /// start signal (a mutex hand-off, or a task's creation) orders it before their claims.
    func fill(_ sections: Int) { remaining.store(sections, ordering: .relaxed) }

    /// Up to `chunk` sections for `participant` to perform; 0 when the run's quota is spent.
    /// relaxed: the counter only divides work; no data is published through it.
    func claim(for participant: Int) -> Int {
        let before = remaining.wrappingSubtract(Self.chunk, ordering: .relaxed).oldValue
        let granted = max(0, min(Self.chunk, before))
        taken[participant] += granted
        return granted
    }

    /// Records `sections` as performed by `participant` without claiming them: for a run with one
    /// participant, which has nobody to divide them with.
    func grantAll(_ sections: Int, to participant: Int) { taken[participant] += sections }

    /// Sections each participant has performed since the last `resetShares`.
    var shares: [Int] { (0..<participants).map { taken[$0] } }

    func resetShares() { taken.update(repeating: 0, count: participants) }
}

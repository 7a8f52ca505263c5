import Synchronization

/// Who claims which piece of one parallel loop.
///
/// A loop with many pieces per thread is dealt out in shares: one per thread taking part, each a
/// word in a cache line of its own. The caller's share starts with every piece; a thread claims
/// the next piece of its own share with one atomic add on a line no other thread writes while the
/// share lasts, and when its share is empty (a helper's, at first) it takes the later half of the
/// fullest share left and makes that its own. One cursor shared by every thread, as
/// `dispatch_apply` has, moves its line between the CPUs on every claim: at stride 1 that transfer
/// is the whole cost of a piece, on every backend and libdispatch alike (README.md, "PieceShares").
/// With shares, threads meet only when one steals, about log2(pieces) times per thread.
/// Every piece is still claimed alone and the piece function still called once per piece: what a
/// stride means does not change, only what a claim costs.
///
/// A loop with few pieces per thread keeps the one cursor: its claims are rare, so their cost
/// does not show, and the shares' lines would be one more allocation per loop, which a small loop
/// does feel (README.md beside this file, "ParallelLoop").
///
/// A share is one 64-bit word, `end << 32 | next`, so that the owner's claim (`next += 1`) and a
/// thief's steal (`end -= half`) change it atomically together. Shares count in units of
/// `piecesPerUnit` pieces, 1 unless a loop has more pieces than 32 bits hold. README.md,
/// "PieceShares", has the races.
struct PieceShares: ~Copyable {
    let pieces: Int
    let piecesPerUnit: Int
    /// Threads that may claim: one share each, or all from `cursor` when `lines` is nil.
    let threads: Int
    /// The next unit to claim, when the loop is not dealt out in shares.
    private let cursor = Atomic<Int>(0)
    private let lines: LineSlots<Atomic<UInt64>>?

    /// Pieces per thread from which a loop is dealt out in shares: below it a claim is rare next
    /// to a piece's own cost (64 claims, a line transfer each, against a loop of microseconds),
    /// and one cursor saves the lines' allocation.
    static let piecesPerThreadForShares = 64

    /// The largest unit index a share holds, so that `next` may pass `end` by one (an owner's claim
    /// on an empty share) without carrying into `end`.
    static let maximumUnits = Int(UInt32.max) - 1

    /// The pieces of a loop for `threads` threads.
    /// - Precondition: `pieces >= 1`, `threads >= 1`.
    init(pieces: Int, threads: Int) {
        precondition(pieces >= 1 && threads >= 1, "\(pieces) pieces cannot be dealt to \(threads) threads")
        self.pieces = pieces
        self.threads = threads
        let split = threads > 1 && pieces >= threads * Self.piecesPerThreadForShares
        piecesPerUnit = split ? (pieces + Self.maximumUnits - 1) / Self.maximumUnits : 1
        let units = (pieces + piecesPerUnit - 1) / piecesPerUnit
        lines = split ? LineSlots(count: threads) { Atomic(Self.word(next: 0, end: $0 == 0 ? units : 0)) } : nil
    }

    deinit { lines?.deallocate() }

    /// The pieces of `unit`.
    @inline(__always)
    func pieces(ofUnit unit: Int) -> Range<Int> {
        let first = unit * piecesPerUnit
        return first..<min(first + piecesPerUnit, pieces)
    }

    /// Thread `thread`'s next unit, or nil when its share is empty (or, with one cursor, when
    /// every unit is claimed). Thread 0 is the caller; each helper has its own number.
    ///
    /// relaxed: a claim only has to be unique; nothing is published through a share.
    @inline(__always)
    func claim(for thread: Int) -> Int? {
        guard let lines else {
            let unit = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
            return unit < pieces ? unit : nil
        }
        let (next, end) = Self.bounds(lines[thread].pointee.wrappingAdd(1, ordering: .relaxed).oldValue)
        return next < end ? next : nil
    }

    /// Thread `thread`, once its share is empty: takes the later half (rounded up) of the fullest
    /// other share and makes it its own. False when every share is empty, and always with one
    /// cursor (there is nothing to steal from).
    func steal(for thread: Int) -> Bool {
        guard let lines else { return false }
        while true {
            var victim = -1, victimWord: UInt64 = 0, most = 0
            for index in 0..<lines.count where index != thread {
                let word = lines[index].pointee.load(ordering: .relaxed)
                let (next, end) = Self.bounds(word)
                if end - next > most { (victim, victimWord, most) = (index, word, end - next) }
            }
            guard victim >= 0 else { return false }
            let (next, end) = Self.bounds(victimWord)
            let start = end - (most + 1) / 2
            // A failure means the victim's owner claimed or another thief stole meanwhile: look again.
            guard
                lines[victim].pointee.compareExchange(
                    expected: victimWord, desired: Self.word(next: next, end: start),
                    ordering: .relaxed
                ).exchanged
            else { continue }
            // A plain store: only this thread claims from its own share, and thieves leave an
            // empty share alone, so nobody else writes it until it holds the new range.
            lines[thread].pointee.store(Self.word(next: start, end: end), ordering: .relaxed)
            return true
        }
    }

    @inline(__always)
    private static func bounds(_ word: UInt64) -> (next: Int, end: Int) {
        (Int(word & 0xFFFF_FFFF), Int(word >> 32))
    }

    private static func word(next: Int, end: Int) -> UInt64 {
        UInt64(end) << 32 | UInt64(next)
    }
}

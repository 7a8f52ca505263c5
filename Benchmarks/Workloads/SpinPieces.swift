import CBodyCost
import CReferences
import RuntimeKit

/// apply-stride's body, one piece at a time, as a C function (`rb_spin_piece`) and its context:
/// the calibrated spin for every index of the piece, in a loop inside the piece, then the piece
/// recorded in the loop's `PieceTally`. The suite's apply cases, their serial baseline and the C
/// reference all run this same code, so what differs between them is only how the runtime
/// schedules the pieces.
final class SpinPieces: @unchecked Sendable {
    let tally: PieceTally
    /// On lines of its own (`isolation` bytes, as aligned): every index of a piece reloads the
    /// spin count from it (the spin's compiler barrier forces that), so a neighbour that malloc
    /// placed on the same line and another thread writes, such as a loop's claim cursor, would
    /// turn every reload into a miss, and an empty body's speed would depend on where malloc put
    /// the two.
    private let body: UnsafeMutablePointer<rb_spin_piece_context>
    private static let isolation = 128

    init(spinRounds: rb_spin_rounds, iterations: Int) {
        tally = PieceTally(iterations: iterations)
        body = UnsafeMutableRawPointer.allocate(byteCount: Self.isolation, alignment: Self.isolation)
            .bindMemory(to: rb_spin_piece_context.self, capacity: 1)
        body.initialize(to: rb_spin_piece_context(spin: spinRounds, tally: tally.tally))
    }

    deinit {
        body.deinitialize(count: 1)
        UnsafeMutableRawPointer(body).deallocate()
    }

    /// The context `function` takes; valid while this object lives.
    var context: UnsafeMutableRawPointer { UnsafeMutableRawPointer(body) }

    /// Runs the piece `piece` on the calling thread.
    @inline(__always)
    func run(_ piece: Range<Int>) { rb_spin_piece(context, piece.lowerBound, piece.upperBound) }
}

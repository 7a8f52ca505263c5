import RuntimeKit

/// One `apply` in the piece function form, as the libdispatch adapters hand it to every piece:
/// trivial values only, so reading it from several threads at once costs no reference counting
/// (a closure read the same way is retained and released by every piece, from every CPU).
///
/// `@unchecked Sendable`: the context is the caller's, valid until its `apply` returns, which is
/// after every piece has run.
struct PieceCall: @unchecked Sendable {
    let plan: ApplyPlan
    let piece: PieceFunction
    let context: UnsafeMutableRawPointer?

    func run(piece index: Int) {
        let range = plan.indices(ofPiece: index)
        piece(context, range.lowerBound, range.upperBound)
    }
}

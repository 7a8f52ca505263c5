import RuntimeKit

/// An `apply` plan with its closure body, for the libdispatch adapters' closure form of apply,
/// whose loop primitives (`dispatch_apply_f`, `concurrentPerform`) run one piece per call; the body
/// gets the piece's whole range in one call (the guide's striding: the loop is inside the block).
/// Reading the closure out of this struct in every piece retains and releases its context from
/// every CPU: code where that matters uses the `PieceFunction` form (`PieceCall`).
///
/// `@unchecked Sendable`: `apply` promises its body may run on several threads at once (that is
/// the contract of `ConcurrencyRuntime.apply`), and the adapters only use a loop while the `apply`
/// that made it is still on the stack.
struct StridedLoop: @unchecked Sendable {
    let plan: ApplyPlan
    let body: (Range<Int>) -> Void

    func run(piece: Int) {
        body(plan.indices(ofPiece: piece))
    }
}

import RuntimeKit

/// An `apply` plan with its body, for the libdispatch adapters, whose loop primitives
/// (`dispatch_apply_f`, `concurrentPerform`) run one piece per call.
///
/// `@unchecked Sendable`: `apply` promises its body may run on several threads at once (that is
/// the contract of `ConcurrencyRuntime.apply`), and the adapters only use a loop while the `apply`
/// that made it is still on the stack.
struct StridedLoop: @unchecked Sendable {
    let plan: ApplyPlan
    let body: (Int) -> Void

    func run(piece: Int) {
        for index in plan.indices(ofPiece: piece) { body(index) }
    }
}

import CSpinHint
import RuntimeKit
import Synchronization

/// `apply` for backends that have a pool but no loop primitive of their own.
///
/// The loop is cut into pieces of `stride` iterations, and a piece function is called once per
/// piece with its bounds (`ApplyPlan.indices(ofPiece:)`). Helper jobs go to the pool, and the
/// calling thread claims pieces too, from one shared atomic cursor. The caller only blocks once no
/// piece is left unclaimed, and then only for pieces already running on other threads, so a nested
/// `apply` (one issued from inside a body) always makes progress even when every worker is busy:
/// its caller can finish the whole inner loop alone. Helpers that start after the loop is done
/// find the cursor past the end and return without touching the piece function.
///
/// The loop runs a C piece function (`PieceFunction`) with a context, as `dispatch_apply_f` does:
/// a caller that has one (the suite's apply) pays a plain call per piece. A closure body comes
/// through the same door (`withPieceFunction`: an object holding the closure is the context).
/// Before, the loop stored the closure and called it per piece, through a reabstraction thunk
/// and the closure's own wrapper (a tenth of fifo-dispatch's stride-1 loop), and each helper had
/// to copy (retain) it.
public enum ParallelLoop {
    /// - Parameters:
    ///   - helpers: at most this many pool jobs help the caller (typically `workers - 1`).
    ///   - submit: puts one helper job on the pool.
    ///   - body: called once per piece with the piece's indices; never when `iterations` is 0.
    public static func run(
        iterations: Int,
        stride policy: StridePolicy,
        workers: Int,
        submit: (@escaping @Sendable () -> Void) -> Void,
        pieces body: (Range<Int>) -> Void
    ) {
        withPieceFunction(calling: body) { context, piece in
            run(iterations: iterations, stride: policy, workers: workers, submit: submit, context: context, piece)
        }
    }

    /// The C form: `piece(context, lower, upper)` once per piece. `context` must stay valid until
    /// this returns, which is after the last piece has returned.
    public static func run(
        iterations: Int,
        stride policy: StridePolicy,
        workers: Int,
        submit: (@escaping @Sendable () -> Void) -> Void,
        context: UnsafeMutableRawPointer?,
        _ piece: PieceFunction
    ) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 1 else {
            if iterations > 0 { piece(context, 0, iterations) }  // one piece (or none): the caller runs it
            return
        }
        let loop = Loop(plan: plan, context: context, piece: piece)
        for _ in 0..<min(workers - 1, plan.pieces - 1) {
            submit { loop.work() }
        }
        loop.work()
        loop.waitForRunningPieces()
    }

    private final class Loop: @unchecked Sendable {
        let plan: ApplyPlan
        /// Read only by a thread that has claimed a piece, which the caller waits for.
        let context: UnsafeMutableRawPointer?
        let piece: PieceFunction
        let cursor = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let done = MutexSemaphore(value: 0)

        init(plan: ApplyPlan, context: UnsafeMutableRawPointer?, piece: PieceFunction) {
            self.plan = plan
            self.context = context
            self.piece = piece
        }

        /// Claims and runs pieces until none is left, then counts them finished in one step.
        func work() {
            // relaxed: the claim only has to be unique; the context was published before any
            // helper was submitted (the pool's own lock orders that).
            var claimed = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
            guard claimed < plan.pieces else { return }  // late: never touch the context, which may be gone
            var ran = 0
            repeat {
                let range = plan.indices(ofPiece: claimed)
                piece(context, range.lowerBound, range.upperBound)
                ran += 1
                claimed = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
            } while claimed < plan.pieces
            // acquiringAndReleasing: release publishes this thread's pieces' writes to the caller;
            // the acquire half chains earlier threads' writes to whoever finishes last.
            if finished.wrappingAdd(ran, ordering: .acquiringAndReleasing).newValue == plan.pieces {
                done.signal()
            }
        }

        func waitForRunningPieces() {
            for _ in 0..<Self.spinRounds {
                // acquiring: the pieces' writes, released by their finishing adds, are the caller's now.
                if finished.load(ordering: .acquiring) == plan.pieces { return }
                rb_spin_pause()
            }
            done.wait()  // the last piece to finish signals exactly once
        }

        /// About 20-40 microseconds of `pause` on current x86 cores: a few pieces of a small loop,
        /// short next to the time slice a spinning caller takes from a helper on a busy machine.
        static let spinRounds = 1_000
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CSpinHint
import RuntimeKit
import Synchronization

/// `apply` for backends that have a pool but no loop primitive of their own.
///
/// The loop is cut into pieces of `stride` iterations, and a piece function is called once per
/// piece with its bounds (`ApplyPlan.indices(ofPiece:)`). Helper jobs go to the pool, and the
/// calling thread claims pieces too (`PieceShares`: from one cursor, or, in a loop of many pieces,
/// each thread from its own share and then from halves it steals of the others'). The caller only
/// blocks once no piece is left unclaimed, and then only for pieces already running on other
/// threads, so a nested `apply` (one issued from inside a body) always makes progress even when
/// every worker is busy: its caller can claim every piece alone. Helpers that start after the loop
/// is done find nothing to claim and return without touching the piece function.
///
/// The loop runs a C piece function (`PieceFunction`) with a context, as `dispatch_apply_f` does:
/// a caller that has one (the suite's apply) pays a plain call per piece. A closure body comes
/// through the same door (`withPieceFunction`: an object holding the closure is the context).
/// A closure stored in the loop would be called per piece through a reabstraction thunk and the
/// closure's own wrapper, and each helper would have to copy (retain) it (README.md,
/// "ParallelLoop").
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
        let helpers = min(workers - 1, plan.pieces - 1)
        let loop = Loop(plan: plan, threads: helpers + 1, context: context, piece: piece)
        for _ in 0..<helpers {
            submit { loop.work(as: loop.nextHelper()) }
        }
        loop.work(as: 0)
        loop.waitForRunningPieces()
    }

    private final class Loop: @unchecked Sendable {
        let plan: ApplyPlan
        /// Read only by a thread that has claimed a piece, which the caller waits for.
        let context: UnsafeMutableRawPointer?
        let piece: PieceFunction
        let shares: PieceShares
        /// Helpers that have started: the caller is thread 0 of the loop, the n-th helper thread n.
        let helpersStarted = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        /// Posted once, by the last finisher. A bare `sem_t`, not a semaphore object (five blocks):
        /// the loop is often freed by a helper, and glibc takes a block freed on another thread
        /// back through the arena's lock (README.md, "Allocations per loop").
        let done: UnsafeMutablePointer<sem_t>

        init(plan: ApplyPlan, threads: Int, context: UnsafeMutableRawPointer?, piece: PieceFunction) {
            self.plan = plan
            shares = PieceShares(pieces: plan.pieces, threads: threads)
            self.context = context
            self.piece = piece
            done = .allocate(capacity: 1)
            sem_init(done, 0, 0)
        }

        deinit {
            sem_destroy(done)
            done.deallocate()
        }

        /// relaxed: the index only has to be unique.
        func nextHelper() -> Int { helpersStarted.wrappingAdd(1, ordering: .relaxed).newValue }

        /// Runs the pieces thread `thread` claims (its share, then every half it steals) until
        /// none is left; then counts what it ran as finished, in one step.
        func work(as thread: Int) {
            assert(thread < shares.threads, "more threads than the loop was dealt out for")
            // relaxed claims: a claim only has to be unique; the context was published before any
            // helper was submitted (the pool's own lock orders that).
            var ran = 0
            repeat {
                while let unit = shares.claim(for: thread) {
                    for index in shares.pieces(ofUnit: unit) {
                        let range = plan.indices(ofPiece: index)
                        piece(context, range.lowerBound, range.upperBound)
                        ran += 1
                    }
                }
            } while shares.steal(for: thread)
            // A thread that found nothing (a late helper) adds nothing: the count may be
            // complete already, and its add would post `done` a second time.
            guard ran > 0 else { return }
            // acquiringAndReleasing: release publishes this thread's pieces' writes to the caller;
            // the acquire half chains earlier threads' writes to whoever finishes last.
            if finished.wrappingAdd(ran, ordering: .acquiringAndReleasing).newValue == plan.pieces {
                sem_post(done)
            }
        }

        func waitForRunningPieces() {
            for _ in 0..<Self.spinRounds {
                // acquiring: the pieces' writes, released by their finishing adds, are the caller's now.
                if finished.load(ordering: .acquiring) == plan.pieces { return }
                rb_spin_pause()
            }
            // The last piece to finish posts exactly once; EINTR is a signal handler, not a post.
            while sem_wait(done) != 0 { precondition(errno == EINTR, "sem_wait failed: errno \(errno)") }
        }

        /// About 20-40 microseconds of `pause` on current x86 cores: a few pieces of a small loop,
        /// short next to the time slice a spinning caller takes from a helper on a busy machine.
        static let spinRounds = 1_000
    }
}

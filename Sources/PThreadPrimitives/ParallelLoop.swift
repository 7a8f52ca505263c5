import CSpinHint
import RuntimeKit
import Synchronization

/// `apply` for backends that have a pool but no loop primitive of their own.
///
/// The loop is cut into pieces of `stride` iterations, and `body` is called once per piece with its
/// range (`ApplyPlan.indices(ofPiece:)`). Helper jobs go to the pool, and the calling
/// thread claims pieces too, from one shared atomic cursor. The caller only blocks once no piece
/// is left unclaimed, and then only for pieces already running on other threads, so a nested
/// `apply` (one issued from inside a body) always makes progress even when every worker is busy:
/// its caller can finish the whole inner loop alone. Helpers that start after the loop is done
/// find the cursor past the end and return without touching the body.
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
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 1 else {
            if iterations > 0 { body(0..<iterations) }  // one piece (or none): the caller runs it
            return
        }
        withoutActuallyEscaping(body) { escapableBody in
            let loop = Loop(plan: plan, body: escapableBody)
            for _ in 0..<min(workers - 1, plan.pieces - 1) {
                submit { loop.work() }
            }
            loop.work()
            loop.waitForRunningPieces()
            // Every piece has finished (acquire in waitForRunningPieces), so no thread holds the
            // body any more; late helpers only read the cursor. Dropping it here is what lets
            // withoutActuallyEscaping verify the closure did not escape.
            loop.body = nil
        }
    }

    private final class Loop: @unchecked Sendable {
        let plan: ApplyPlan
        /// Read only by a thread that has claimed a piece, which the caller waits for.
        var body: ((Range<Int>) -> Void)?
        let cursor = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let done = MutexSemaphore(value: 0)

        init(plan: ApplyPlan, body: @escaping (Range<Int>) -> Void) {
            self.plan = plan
            self.body = body
        }

        /// Claims and runs pieces until none is left, then counts them finished in one step.
        func work() {
            let ran = runClaimedPieces()
            guard ran > 0 else { return }
            // acquiringAndReleasing: release publishes this thread's pieces' writes to the caller;
            // the acquire half chains earlier threads' writes to whoever finishes last.
            if finished.wrappingAdd(ran, ordering: .acquiringAndReleasing).newValue == plan.pieces {
                done.signal()
            }
        }

        /// Not inlined on purpose: its copy of `body` (one retain for all the pieces this thread
        /// runs, not one per piece, which bounced the closure's reference count between the
        /// threads) must be released when this returns, before the pieces are counted finished.
        /// Otherwise the caller can see every piece done, drop its own reference and find the
        /// closure still retained by a helper, which `withoutActuallyEscaping` reports as an
        /// escape (the stress test caught exactly that).
        @inline(never)
        private func runClaimedPieces() -> Int {
            // relaxed: the claim only has to be unique; the body was published before any helper
            // was submitted (the pool's own lock orders that).
            var piece = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
            guard piece < plan.pieces else { return 0 }  // late: never touch body, which may be gone
            let body = self.body!  // this thread's claim is not counted yet, so the caller still waits
            var ran = 0
            repeat {
                body(plan.indices(ofPiece: piece))
                ran += 1
                piece = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
            } while piece < plan.pieces
            return ran
        }

        /// Spins a while before sleeping: what is left is at most one piece per helper, and a small
        /// loop's pieces last a few microseconds, less than a sleep and a wake-up of the caller
        /// cost (waiting on the semaphore at once made every helper that joined late cost the
        /// automatic stride 20-85% on an empty body). The last finisher signals whether or not
        /// anyone sleeps; the permit dies with the loop.
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

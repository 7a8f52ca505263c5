import PThreadPrimitives
import RuntimeKit

extension StealingRuntime {
    /// Jobs a worker keeps offered to thieves while it splits an apply (see `apply`).
    static let applyLazyThreshold = 1

    /// `apply` by recursive splitting with `join`: halves go onto the worker's deque, so idle
    /// workers steal the biggest pieces first (the oldest jobs are the largest halves).
    ///
    /// - `.fixed(n)`: pieces of `n` iterations (`ApplyPlan`), split in halves down to one piece.
    /// - `.automatic`: adaptive, after rayon's default splitter: a range is split while its split
    ///   budget lasts (the budget halves at every split), and a half that was stolen gets the
    ///   budget back (at least the worker count), because a steal means some worker is idle and
    ///   wants smaller pieces. The budget starts at `StridePolicy.automaticPiecesPerWorker` per
    ///   worker, not rayon's one: a worker that was asleep when the loop began joins it late (a
    ///   wake-up takes tens of microseconds), and with one piece per worker the others have
    ///   nothing left to share by then; lazy splitting keeps the extra splits to plain calls
    ///   (README.md, "Apply").
    ///
    /// From a worker (a nested apply, or a block that applies) the worker splits the loop itself.
    /// From outside the pool the caller takes part as the protocol says, through `ParallelLoop`:
    /// it claims pieces from a shared cursor while helper jobs on the pool claim the rest, so the
    /// loop finishes even when every worker is busy with blocks that wait for the caller. The
    /// caller has no deque, so it cannot split; handing the whole loop to a worker and waiting,
    /// as rayon does, hangs that case (BlockingConformance). The helpers go in with
    /// `injectHelper`, whose wake-up waits briefly for a worker that is about to search.
    ///
    /// The splits use lazy joins (`JoinSplitting.lazy`) whatever the runtime's own setting: a half is
    /// offered to thieves only while the splitting worker's deque is empty, and otherwise split
    /// further by plain calls. Every piece still has its size; what changes is that a loop of a
    /// million pieces does not make a million stealable jobs (a fenced pop each) when one waiting
    /// half per worker is all an idle thief needs, and a stolen half refills it.
    ///
    /// Every leaf of the splitting calls `body` once with its range: with `.fixed(n)` a leaf is one
    /// piece of `n` iterations; with `.automatic` it is whatever range the splitter stopped at.
    @_disfavoredOverload
    public func apply(iterations: Int, stride policy: StridePolicy, pieces body: (Range<Int>) -> Void) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 1 else {
            if iterations > 0 { body(0..<iterations) }  // one piece (or none): the caller runs it
            return
        }
        guard let worker = CurrentWorker.of(self) else {
            ParallelLoop.run(
                iterations: iterations, stride: policy, workers: workers,
                submit: { injectHelper(HeapJob.make($0)) }, pieces: body)
            return
        }
        withoutActuallyEscaping(body) { body in
            let loop = ApplyBody(body)
            defer { loop.body = nil }  // every piece has run: drop the closure before it is checked for escaping
            let shared = Unmanaged.passUnretained(loop), runtime = Unmanaged.passUnretained(self)
            switch policy {
            case .fixed:
                PieceSplit(runtime: runtime, plan: plan, pieces: 0..<plan.pieces, loop: shared).run()
            case .automatic:
                AdaptiveSplit(
                    runtime: runtime, range: 0..<iterations, budget: workers * StridePolicy.automaticPiecesPerWorker,
                    parent: .passUnretained(worker), loop: shared
                ).run()
            }
        }
    }
}

extension StealingRuntime {
    /// The pieces form with a C piece function. From outside the pool it goes to `ParallelLoop`
    /// as it is, with no closure per piece; from a worker the splitting needs a closure, and the
    /// piece function is called from one.
    public func apply(
        iterations: Int, stride policy: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction
    ) {
        guard CurrentWorker.of(self) != nil else {
            ParallelLoop.run(
                iterations: iterations, stride: policy, workers: workers,
                submit: { injectHelper(HeapJob.make($0)) }, context: context, piece)
            return
        }
        apply(
            iterations: iterations, stride: policy,
            pieces: { range in piece(context, range.lowerBound, range.upperBound) })
    }
}

/// The loop body, shared by every split of one apply. The splits refer to it (and to the runtime
/// and workers) unretained: a split is copied at every level, and a retain and release of a shared
/// object per copy would bounce its reference count between the workers.
final class ApplyBody {
    var body: ((Range<Int>) -> Void)?
    init(_ body: @escaping (Range<Int>) -> Void) { self.body = body }

    /// Runs the body once over `range`. The apply that owns this object outlives every call.
    @inline(__always)
    static func run(_ loop: Unmanaged<ApplyBody>, over range: Range<Int>) {
        loop._withUnsafeGuaranteedRef { loop in
            loop.body.unsafelyUnwrapped(range)
        }
    }
}

/// One half of a fixed-stride apply: a range of pieces.
struct PieceSplit: JoinTask {
    let runtime: Unmanaged<StealingRuntime>
    let plan: ApplyPlan
    let pieces: Range<Int>
    let loop: Unmanaged<ApplyBody>

    func run() {
        if pieces.count == 1 {
            ApplyBody.run(loop, over: plan.indices(ofPiece: pieces.lowerBound))
            return
        }
        let middle = pieces.lowerBound + pieces.count / 2
        let left = PieceSplit(runtime: runtime, plan: plan, pieces: pieces.lowerBound..<middle, loop: loop)
        let right = PieceSplit(runtime: runtime, plan: plan, pieces: middle..<pieces.upperBound, loop: loop)
        runtime._withUnsafeGuaranteedRef { runtime in
            CurrentWorker.unmanaged(of: runtime)!._withUnsafeGuaranteedRef { worker in
                _ = runtime.join(on: worker, { left.run() }, right, lazyThreshold: StealingRuntime.applyLazyThreshold)
            }
        }
    }
}

/// One half of an automatic-stride apply: a range of iterations and what is left of its split
/// budget. `parent` is the worker that created it, so a half run elsewhere knows it was stolen.
struct AdaptiveSplit: JoinTask {
    let runtime: Unmanaged<StealingRuntime>
    let range: Range<Int>
    let budget: Int
    let parent: Unmanaged<Worker>
    let loop: Unmanaged<ApplyBody>

    func run() {
        runtime._withUnsafeGuaranteedRef { runtime in
            let current = CurrentWorker.unmanaged(of: runtime)!
            var budget = budget
            let split: Bool
            if range.count < 2 {
                split = false
            } else if current.toOpaque() != parent.toOpaque() {
                budget = max(runtime.workers, budget / 2)  // stolen: someone is idle, split finer again
                split = true
            } else if budget > 0 {
                budget /= 2
                split = true
            } else {
                split = false
            }
            guard split else {
                ApplyBody.run(loop, over: range)
                return
            }
            let middle = range.lowerBound + range.count / 2
            let left = AdaptiveSplit(
                runtime: self.runtime, range: range.lowerBound..<middle, budget: budget, parent: current, loop: loop)
            let right = AdaptiveSplit(
                runtime: self.runtime, range: middle..<range.upperBound, budget: budget, parent: current, loop: loop)
            current._withUnsafeGuaranteedRef { worker in
                _ = runtime.join(on: worker, { left.run() }, right, lazyThreshold: StealingRuntime.applyLazyThreshold)
            }
        }
    }
}

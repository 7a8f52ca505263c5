import RuntimeKit

extension StealingRuntime {
    /// `apply` by recursive splitting with `join`: halves go onto the worker's deque, so idle
    /// workers steal the biggest pieces first (the oldest jobs are the largest halves).
    ///
    /// - `.fixed(n)`: pieces of `n` iterations (`ApplyPlan`), split in halves down to one piece.
    /// - `.automatic`: adaptive, as rayon's default splitter: a range is split while its split
    ///   budget lasts (the budget starts at the worker count and halves at every split), and a
    ///   half that was stolen gets the budget back (at least the worker count), because a steal
    ///   means some worker is idle and wants smaller pieces. A loop on a busy pool stays in few,
    ///   large pieces (little scheduling overhead for tiny bodies); an idle pool splits it finer.
    ///
    /// From outside the pool the loop is handed to a worker and the caller waits (it has no deque
    /// to take part with); from a worker (a nested apply) the worker runs it itself.
    public func apply(iterations: Int, stride policy: StridePolicy, _ body: (Int) -> Void) {
        let plan = ApplyPlan(iterations: iterations, stride: policy, workers: workers)
        guard plan.pieces > 1 else {
            for index in 0..<iterations { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            switch policy {
            case .fixed:
                onWorker { _ in PieceSplit(runtime: self, plan: plan, pieces: 0..<plan.pieces, body: body).run() }
            case .automatic:
                onWorker { worker in
                    AdaptiveSplit(runtime: self, range: 0..<iterations, budget: workers, parent: worker, body: body).run()
                }
            }
        }
    }
}

/// One half of a fixed-stride apply: a range of pieces.
struct PieceSplit: JoinTask {
    unowned(unsafe) let runtime: StealingRuntime  // the runtime outlives every apply it runs
    let plan: ApplyPlan
    let pieces: Range<Int>
    let body: (Int) -> Void

    func run() {
        if pieces.count == 1 {
            for index in plan.indices(ofPiece: pieces.lowerBound) { body(index) }
            return
        }
        let middle = pieces.lowerBound + pieces.count / 2
        let left = PieceSplit(runtime: runtime, plan: plan, pieces: pieces.lowerBound..<middle, body: body)
        let right = PieceSplit(runtime: runtime, plan: plan, pieces: middle..<pieces.upperBound, body: body)
        _ = runtime.join(on: CurrentWorker.of(runtime)!, { left.run() }, right)
    }
}

/// One half of an automatic-stride apply: a range of iterations and what is left of its split
/// budget. `parent` is the worker that created it, so a half run elsewhere knows it was stolen.
struct AdaptiveSplit: JoinTask {
    unowned(unsafe) let runtime: StealingRuntime
    let range: Range<Int>
    let budget: Int
    unowned(unsafe) let parent: Worker
    let body: (Int) -> Void

    func run() {
        let worker = CurrentWorker.of(runtime)!
        var budget = budget
        let split: Bool
        if range.count < 2 {
            split = false
        } else if worker !== parent {
            budget = max(runtime.workers, budget / 2)  // stolen: someone is idle, split finer again
            split = true
        } else if budget > 0 {
            budget /= 2
            split = true
        } else {
            split = false
        }
        guard split else {
            for index in range { body(index) }
            return
        }
        let middle = range.lowerBound + range.count / 2
        let left = AdaptiveSplit(runtime: runtime, range: range.lowerBound..<middle, budget: budget, parent: worker, body: body)
        let right = AdaptiveSplit(runtime: runtime, range: middle..<range.upperBound, budget: budget, parent: worker, body: body)
        _ = runtime.join(on: worker, { left.run() }, right)
    }
}

import PThreadPrimitives
import Synchronization

extension StealingRuntime {
    /// Runs `left` and `right`, potentially in parallel, and returns both results: rayon's
    /// `join`. On a worker, `right` is pushed to the worker's own deque and `left` runs at once; if
    /// nobody stole `right` meanwhile, the worker pops it back and runs it inline (no
    /// synchronization beyond the deque's); if a thief took it, the worker runs other jobs until
    /// the thief is done, so waiting never idles a worker. Called from outside the pool, the pair
    /// is sent into the pool and the caller blocks until it is done.
    public func join<A, B>(_ left: () -> A, _ right: () -> B) -> (A, B) {
        guard let worker = CurrentWorker.of(self) else {
            return withoutActuallyEscaping(left) { left in
                withoutActuallyEscaping(right) { right in
                    let pair = ForkedPair(left: left, right: right)
                    let done = MutexSemaphore(value: 0)  // the caller is outside the pool: blocking it starves nobody
                    async { pair.run(on: self); done.signal() }
                    done.wait()
                    return pair.take()
                }
            }
        }
        return withoutActuallyEscaping(right) { right in
            let forked = ForkedJob(right)
            let job = StealingJob { forked.run() }
            pushLocal(job, on: worker)
            let leftResult = left()
            // Pop our own jobs back until we find `job` or the deque is empty. Anything popped on
            // the way was pushed after `job` by `left`'s own joins and is already finished... except
            // jobs `left` pushed with `async`, which we simply run.
            while !forked.isFinished {
                if let popped = worker.deque.pop() {
                    popped.work()  // `job` itself, run inline, or newer work of ours
                } else if let other = stealAny(for: worker) {
                    other.work()  // `job` was stolen: help until the thief finishes it
                } else {
                    forked.spinWait()
                }
            }
            return (leftResult, forked.takeResult())
        }
    }
}

/// The right half of a join: runs once, records its result, and says when it is done.
///
/// The body is dropped before the job reports itself finished: the thief still holds the job
/// (and so this object) until its `work()` returns, and a body still referenced then would make
/// the joiner's `withoutActuallyEscaping` trap ("closure has escaped"), the bug the ParallelLoop
/// stress test once caught.
final class ForkedJob<B>: @unchecked Sendable {
    private var body: (() -> B)?
    private var result: B?
    private let finished = Atomic<Bool>(false)

    init(_ body: @escaping () -> B) { self.body = body }

    func run() {
        result = compute()
        body = nil
        // releasing: the joiner that sees finished == true sees the result.
        finished.store(true, ordering: .releasing)
    }

    /// Not inlined: the local copy of the body is released on return, before `body = nil`.
    @inline(never)
    private func compute() -> B { body!() }

    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Nothing to pop or steal while the thief finishes: a short pause, not a sleep (the thief is
    /// running, and joins are short).
    func spinWait() {
        for _ in 0..<16 { _ = finished.load(ordering: .relaxed) }
    }

    func takeResult() -> B {
        precondition(isFinished)
        return result.take()!
    }
}

/// A join called from outside the pool: both halves run inside it.
final class ForkedPair<A, B>: @unchecked Sendable {
    private var halves: (left: () -> A, right: () -> B)?
    private var results: (A, B)?

    init(left: @escaping () -> A, right: @escaping () -> B) {
        halves = (left, right)
    }

    /// Drops both halves before returning, for the reason ForkedJob drops its body.
    func run(on runtime: StealingRuntime) {
        results = runHalves(on: runtime)
        halves = nil
    }

    @inline(never)
    private func runHalves(on runtime: StealingRuntime) -> (A, B) {
        let (left, right) = halves!
        return runtime.join(left, right)
    }
    func take() -> (A, B) { results.take()! }
}

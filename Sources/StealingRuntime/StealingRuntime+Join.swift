#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import Synchronization

extension StealingRuntime: JoiningRuntime {
    /// Runs `left` and `right`, potentially in parallel, and returns both results: rayon's
    /// `join`. On a worker, `right` becomes a job in the joiner's own stack frame, pushed onto the
    /// worker's deque, and `left` runs at once. If nobody stole `right` meanwhile, the worker pops
    /// it back and calls it directly; if a thief took it, the worker runs other jobs until the
    /// thief is done, so waiting never idles a worker. Called from outside the pool, the pair is
    /// sent into the pool and the caller blocks until it is done.
    ///
    /// Making `right` escapable for a thief costs an allocation per call; the form that takes a
    /// `JoinTask` value for `right` costs none.
    @inlinable
    public func join<A, B>(_ left: () -> A, _ right: () -> B) -> (A, B) {
        withoutActuallyEscaping(right) { right in join(left, borrowing: ClosureTask(right)) }
    }

    /// `join` with the right half as a task value: no allocation, no reference counting.
    @inlinable
    public func join<A, Task: JoinTask>(_ left: () -> A, _ right: Task) -> (A, Task.Output) {
        if let worker = CurrentWorker.unmanaged(of: self) {
            return worker._withUnsafeGuaranteedRef { join(on: $0, left, right, lazyThreshold: lazySplitThreshold) }
        }
        return joinFromOutside(left, right)
    }

    /// `join` called from outside the pool. Not inlined: with `onWorker`'s closure formed inline,
    /// the compiler stored the halves it captures into the joiner's frame on every join, before
    /// the branch that takes this path.
    @inlinable @inline(never)
    func joinFromOutside<A, Task: JoinTask>(_ left: () -> A, _ right: Task) -> (A, Task.Output) {
        onWorker { worker in join(on: worker, left, right, lazyThreshold: lazySplitThreshold) }
    }

    /// `join` whose job points at `right` instead of holding a copy (the closure form): copying a
    /// closure task into the job would retain its context on every join and release it when the
    /// job ended. The worker lookup repeats the task form's on purpose: one helper taking the rest
    /// as a closure costs every join far more than the repeated lines (README.md, "Jobs").
    @inlinable
    func join<A, Task: JoinTask>(_ left: () -> A, borrowing right: Task) -> (A, Task.Output) {
        if let worker = CurrentWorker.unmanaged(of: self) {
            return worker._withUnsafeGuaranteedRef {
                join(on: $0, left, borrowing: right, lazyThreshold: lazySplitThreshold)
            }
        }
        return joinFromOutside(left, borrowing: right)
    }

    /// The borrowing form's `joinFromOutside`.
    @inlinable @inline(never)
    func joinFromOutside<A, Task: JoinTask>(_ left: () -> A, borrowing right: Task) -> (A, Task.Output) {
        onWorker { worker in join(on: worker, left, borrowing: right, lazyThreshold: lazySplitThreshold) }
    }

    /// - Parameter lazyThreshold: run both halves here, pushing nothing, while the worker's deque
    ///   holds at least this many jobs (`JoinSplitting.lazy`); `Int.max` never does (eager).
    @inlinable
    func join<A, Task: JoinTask>(on worker: Worker, _ left: () -> A, _ right: Task, lazyThreshold: Int) -> (
        A, Task.Output
    ) {
        // Not counted as an event: this path is a few nanoseconds, and even a plain increment
        // here is a measurable share of it (README.md, "Events").
        if lazyThreshold != Int.max, worker.deque.count >= lazyThreshold { return (left(), right.run()) }
        // The job holds only the prefix's bits; this keeps the prefix (and any context of its
        // function, in unspecialized code) alive until the job is done.
        let prefix = TaskJobPrefix(for: Task.self)
        defer { withExtendedLifetime(prefix) {} }
        var job = TaskJob(task: right, prefix: prefix)
        // Unprotected: the job is a fixed-size value reached only through this pointer, so the
        // stack protector's canary (a store, a load and a compare in every frame a join is inlined
        // into) guards no buffer here; rayon's join pays none.
        return _withUnprotectedUnsafeMutablePointer(to: &job) { job in
            // The job's copy, not `right`: keeping `right` for after `left` holds it in registers
            // saved across the call, a cost on every join (README.md, "Jobs").
            split(job, on: worker, left) { job.pointee.task.run() }
        }
    }

    /// `join(on:)` with a job that points at `right`, which the joiner runs itself when it pops
    /// the job back: `right` is only borrowed, so a closure task is never retained.
    @inlinable
    func join<A, Task: JoinTask>(on worker: Worker, _ left: () -> A, borrowing right: Task, lazyThreshold: Int) -> (
        A, Task.Output
    ) {
        if lazyThreshold != Int.max, worker.deque.count >= lazyThreshold { return (left(), right.run()) }
        return _withUnprotectedUnsafePointer(to: right) { task in
            let prefix = TaskJobPrefix(for: BorrowedTask<Task>.self)
            defer { withExtendedLifetime(prefix) {} }
            var job = TaskJob(task: BorrowedTask(task), prefix: prefix)
            return _withUnprotectedUnsafeMutablePointer(to: &job) { job in split(job, on: worker, left) { right.run() }
            }
        }
    }

    /// The join itself, once its job is in the joiner's frame: offer the job, run `left`, then
    /// run the job here (`runHere`) if nobody stole it, or help until the thief is done.
    @inlinable @inline(__always)
    func split<A, Stolen: JoinTask>(
        _ job: UnsafeMutablePointer<TaskJob<Stolen>>, on worker: Worker, _ left: () -> A,
        runHere: () -> Stolen.Output
    ) -> (A, Stolen.Output) {
        let ref = JobRef(UnsafeMutableRawPointer(job))
        pushLocal(ref, on: worker, offered: true)
        let leftResult = left()
        if popBack(ref, on: worker) {
            worker.unpublishedJoins.pointee &+= 1
            return (leftResult, runHere())
        }
        RuntimeEvents.count(.joinsStolen)
        // A thief runs our half. Help only with other joins' halves: a submitted block run on top
        // of this frame could need what the frame holds and wait for itself (README.md, "Helping").
        help(on: worker, takingOnly: .joinHalves) { job.pointee.done.load(ordering: .acquiring) }
        return (leftResult, job.pointee.result.take()!)
    }

    /// Pops the worker's own jobs until it finds `ref` (true: run it inline) or the deque is empty
    /// (false: a thief took it). Jobs found above `ref` were pushed by the left half with `async`
    /// (its joins have all finished): they are run. Jobs below `ref` are older, and since thieves
    /// take the oldest first, `ref` is gone only once all of them are.
    @inlinable
    func popBack(_ ref: JobRef, on worker: Worker) -> Bool {
        while let popped = worker.deque.pop() {
            if popped == ref { return true }
            popped.run()
        }
        return false
    }

    /// What a waiting worker takes from other workers while it helps.
    @usableFromInline
    enum HelpedJobs { case any, joinHalves }

    /// Helps until `isDone`: runs the worker's own jobs, or steals, and when there is nothing to
    /// run spins briefly, then yields the CPU each round. Used while a thief runs a join's half and
    /// while a scope's tasks finish elsewhere. Yielding matters: with more threads than cores (a
    /// busy machine, ThreadSanitizer) a helper that only spun could hold the core the work it
    /// waits for needs.
    @usableFromInline
    func help(on worker: Worker, takingOnly taken: HelpedJobs = .any, until isDone: () -> Bool) {
        var idleRounds = 0
        while !isDone() {
            if let other = worker.deque.pop() ?? (taken == .any ? stealOnce(for: worker) : stealJoinHalf(for: worker)) {
                other.run()
                idleRounds = 0
            } else {
                idleRounds += 1
                if idleRounds > Self.helpRoundsBeforeYield { RuntimeEvents.yieldCPU() }
            }
        }
    }

    /// Runs `body` on a worker of this pool: directly when the caller is one; otherwise as a job
    /// in the injector while the caller blocks (it is outside the pool, so blocking it starves
    /// nobody).
    @usableFromInline
    func onWorker<T>(_ body: (Worker) -> T) -> T {
        if let worker = CurrentWorker.of(self) { return body(worker) }
        return withoutActuallyEscaping(body) { body in
            let call = OutsideCall(body)
            let done = MutexSemaphore(value: 0)
            inject(
                HeapJob.make { [self] in
                    let worker = CurrentWorker.of(self)!
                    call.run(on: worker)
                    worker.publishEvents()  // before the caller reads its counts
                    done.signal()
                })
            done.wait()
            return call.take()
        }
    }
}

/// A call from outside the pool, run by a worker.
///
/// The body is dropped before the caller is released: the caller's `withoutActuallyEscaping`
/// checks that nobody still holds it, and the job's closure (which holds this object) may outlive
/// the signal by a few instructions.
@usableFromInline
final class OutsideCall<T>: @unchecked Sendable {
    private var body: ((Worker) -> T)?
    private var result: T?

    init(_ body: @escaping (Worker) -> T) { self.body = body }

    func run(on worker: Worker) {
        result = call(on: worker)
        body = nil
    }

    /// Not inlined: the local copy of the body is released on return, before `body = nil`.
    @inline(never)
    private func call(on worker: Worker) -> T { body!(worker) }

    func take() -> T { result.take()! }
}

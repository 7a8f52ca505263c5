import Synchronization

/// The right half of a `join` as a value: what `join` pushes for thieves without allocating.
///
/// A closure can be handed to another thread only once it is escapable, and
/// `withoutActuallyEscaping` allocates a context for that on every call; a generic closure stored
/// in a struct is also re-abstracted through a heap-allocated thunk. A task value of a concrete
/// type is stored as it is, in the joiner's stack frame, so a join with a task costs no allocation
/// and no reference counting. `join(_:_:)` with two closures wraps the right one in
/// `ClosureTask` and pays those costs; measure both (the fork-join workload does).
public protocol JoinTask {
    associatedtype Output
    func run() -> Output
}

/// A closure as a `JoinTask`, for the convenient form of `join`.
@usableFromInline
struct ClosureTask<Output>: JoinTask {
    @usableFromInline
    let body: () -> Output

    @inlinable
    init(_ body: @escaping () -> Output) { self.body = body }

    @inlinable
    func run() -> Output { body() }
}

/// A join's right half in the joiner's stack frame. The joiner pushes its address; if nobody
/// steals it, the joiner pops it back and runs `task` itself (the rest of this struct is then
/// never used). If a thief takes it, the thief runs `task`, stores `result` and sets `done`; the
/// joiner's frame stays alive until it sees `done` (README.md, "Jobs").
@usableFromInline
struct TaskJob<Task: JoinTask>: ~Copyable {
    /// First, where `JobRef.run` and `runStolenTaskJob` read it without knowing `Task`.
    @usableFromInline
    let prefix: TaskJobPrefix
    @usableFromInline
    let done = Atomic<Bool>(false)
    @usableFromInline
    let task: Task
    @usableFromInline
    var result: Task.Output?

    /// Sets the prefix here, not as a default value: this initializer is specialized where `join`
    /// is, so `TaskRunner<Task>`'s metadata is a cached constant instead of a generic lookup.
    @inlinable
    init(task: Task) {
        prefix = TaskJobPrefix(runner: TaskRunner<Task>.self)
        self.task = task
    }
}

/// The part of every `TaskJob` a thief can read before it knows the task's type: the header, and
/// the type that knows the rest of the layout.
@usableFromInline
struct TaskJobPrefix {
    @usableFromInline
    let header: JobHeader
    @usableFromInline
    let runner: any StolenTaskRunner.Type

    @inlinable
    init(runner: any StolenTaskRunner.Type) {
        header = JobHeader(execute: runStolenTaskJob)
        self.runner = runner
    }
}

@usableFromInline
protocol StolenTaskRunner {
    static func runStolen(_ address: UnsafeMutableRawPointer)
}

@usableFromInline
enum TaskRunner<Task: JoinTask>: StolenTaskRunner {
    @usableFromInline
    static func runStolen(_ address: UnsafeMutableRawPointer) {
        let job = address.assumingMemoryBound(to: TaskJob<Task>.self)
        job.pointee.result = compute(job)
        // releasing: the joiner that sees done == true sees the result (and all the task wrote).
        job.pointee.done.store(true, ordering: .releasing)
    }

    /// Not inlined: whatever the call retains (a closure task's context) is released on return,
    /// before `done` is set. A joiner's `withoutActuallyEscaping` checks, once it sees `done`,
    /// that nobody still holds its closure.
    @inline(never)
    private static func compute(_ job: UnsafeMutablePointer<TaskJob<Task>>) -> Task.Output {
        job.pointee.task.run()
    }
}

/// A thief's way in: the header's function, the same for every task type.
@usableFromInline
func runStolenTaskJob(_ address: UnsafeMutableRawPointer) {
    address.load(as: TaskJobPrefix.self).runner.runStolen(address)
}

import RuntimeKit
import Synchronization

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

/// A task that stays in the joiner's frame, reached through a pointer: a job holding it copies no
/// reference (the closure form of `join`).
@usableFromInline
struct BorrowedTask<Task: JoinTask>: JoinTask {
    @usableFromInline
    let task: UnsafePointer<Task>

    @inlinable
    init(_ task: UnsafePointer<Task>) { self.task = task }

    @inlinable
    func run() -> Task.Output { task.pointee.run() }
}

/// A join's right half in the joiner's stack frame. The joiner pushes its address; if nobody
/// steals it, the joiner pops it back and runs `task` itself (the rest of this struct is then
/// never used). If a thief takes it, the thief runs `task`, stores `result` and sets `done`; the
/// joiner's frame stays alive until it sees `done` (README.md, "Jobs").
@usableFromInline
struct TaskJob<Task: JoinTask>: ~Copyable {
    /// First, where `JobRef.run` and `runStolenTaskJob` read it without knowing `Task`: the bits
    /// of the joiner's `TaskJobPrefix`, not the value. A job ends on every join, and ending one
    /// that held the prefix's function released its context, empty as it is, through a call to
    /// swift_release, a large share of a join's cost (README.md, "Jobs"). Bits release nothing;
    /// the joiner keeps the prefix itself alive until the job is done.
    @usableFromInline
    let prefix: TaskJobPrefix.Bits
    @usableFromInline
    let done = Atomic<Bool>(false)
    @usableFromInline
    let task: Task
    @usableFromInline
    var result: Task.Output?

    @inlinable
    init(task: Task, prefix: TaskJobPrefix) {
        self.prefix = prefix.bits
        self.task = task
    }
}

/// The part of every `TaskJob` a thief can read before it knows the task's type: the header, and
/// the function that knows the rest of the layout.
///
/// A function, not the runner's type as an existential metatype: a call through a metatype runs
/// the generic implementation of `TaskRunner`, unspecialized, and with it everything the stolen
/// task does, many times slower for a task generic over its runtime (fork-join's fib). A function
/// formed in specialized code is that specialization.
@usableFromInline
struct TaskJobPrefix {
    /// The prefix as plain words, as a job stores it. The cast is of this struct, whose function
    /// field keeps its own representation; a function value cast alone would first be wrapped in a
    /// reabstraction thunk where the code is not specialized (a debug build), and the thunk is
    /// gone after the cast.
    @usableFromInline
    typealias Bits = (UInt, UInt, UInt)

    @usableFromInline
    let header: JobHeader
    @usableFromInline
    let runStolen: (UnsafeMutableRawPointer) -> Void

    /// Forms the thief's entry here, where `Task` is known: `TaskRunner<Task>`'s specialized code,
    /// a plain function with nothing captured.
    @inlinable
    init<Task: JoinTask>(for task: Task.Type) {
        header = JobHeader(execute: runStolenTaskJob)
        runStolen = TaskRunner<Task>.runStolen
    }

    /// A copy that owns nothing: valid while this prefix lives.
    @inlinable
    var bits: Bits { unsafeBitCast(self, to: Bits.self) }
}

@usableFromInline
enum TaskRunner<Task: JoinTask> {
    @inlinable
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
    @inlinable
    static func compute(_ job: UnsafeMutablePointer<TaskJob<Task>>) -> Task.Output {
        job.pointee.task.run()
    }
}

/// A thief's way in: the header's function, the same for every task type.
@usableFromInline
func runStolenTaskJob(_ address: UnsafeMutableRawPointer) {
    address.load(as: TaskJobPrefix.self).runStolen(address)
}

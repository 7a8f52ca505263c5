import CaseCatalogue
import Harness
import Results
import RuntimeKit
import Synchronization

/// A `direct` reference for one of our own backends: its concrete types in a plain loop, without
/// the workload's guards, contending threads or completion latches. A block submitted again and
/// again is built once, as C passes one function and context.
///
/// The loop is a closure made in `init`, which `Backend.specialized` runs with `R` bound to the
/// concrete runtime, so every call in it is a direct call on that type. Methods of this generic
/// class reached through `any MeasuredOperation` are not specialized: a loop written in `run`
/// would call the queue through its witness table, which costs more than a fast sync
/// (Benchmarks/README.md, "What the references found").
final class ConcreteDirectOperation<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let perform: (Int) throws -> Void
    /// What is wrong after `performed` operations, or nil.
    private let problem: (Int) -> String?
    private var performed = 0
    private let idle: IdleThread?
    private let links: DirectChain<R>?
    /// What the loops count: sections run, blocks run, or signals that claimed a wake-up.
    private let counter: UncheckedPointer<Int>

    init(_ operation: Direct.Operation, runtime: R, loop: DirectLoop?) throws {
        self.runtime = runtime
        idle = operation == .semaphore ? IdleThread() : nil
        links = operation == .chain ? DirectChain(runtime: runtime) : nil
        let counter = UncheckedPointer(UnsafeMutablePointer<Int>.allocate(capacity: 1))
        counter.pointer.initialize(to: 0)
        self.counter = counter
        let counted: (Int) -> String? = { performed in
            counter.pointer.pointee == performed
                ? nil : "\(counter.pointer.pointee) operations ran, \(performed) were performed"
        }
        switch operation {
        case .sync:
            let queue = runtime.makeSerialQueue(label: "direct")
            perform = { count in for _ in 0..<count { queue.sync { counter.pointer.pointee &+= 1 } } }
            problem = counted
        case .asyncDrain:
            let queue = runtime.makeSerialQueue(label: "direct")
            // A function and its context made once, as the suite's block is (`QueueAsyncGuard`):
            // a closure capturing the counter cost a retain and a release per block, and read
            // 2.0–2.4× the suite's figure on fifo-dispatch.
            let increment = FunctionBlock(context: UnsafeMutableRawPointer(counter.pointer), incrementCounter)
            perform = { count in
                for _ in 0..<count { queue.async(increment) }
                queue.sync {}
            }
            problem = counted
        case .chain:
            let links = links!
            perform = { count in try links.run(count) }
            problem = { performed in links.problem(after: performed) }
        case .outside:
            let tasks = DirectTasks(runtime: runtime)
            perform = { count in try tasks.runOutside(count) }
            problem = { performed in tasks.problem(after: performed) }
        case .groupFanOut:
            let tasks = DirectTasks(runtime: runtime)
            perform = { count in tasks.runFanOut(count) }
            problem = { performed in tasks.problem(after: performed) }
        case .groupEnterLeave:
            let group = runtime.makeGroup()
            perform = { count in
                for _ in 0..<count {
                    group.enter()
                    group.leave()
                }
            }
            problem = { performed in
                group.wait(timeout: .zero) == .success
                    ? nil : "after \(performed) enter + leave pairs the group is not empty"
            }
        case .semaphore:
            let semaphore = runtime.makeSemaphore(value: 1)
            perform = { count in
                for _ in 0..<count {
                    semaphore.wait()
                    if semaphore.signal() { counter.pointer.pointee &+= 1 }
                }
            }
            problem = { _ in
                counter.pointer.pointee == 0
                    ? nil : "\(counter.pointer.pointee) signals claimed to wake a waiter, with none waiting"
            }
        case .apply:
            guard let loop else { throw WorkloadError.badParameter("direct's apply needs a loop") }
            let body = SpinPieces(spinRounds: loop.spinRounds, iterations: loop.iterations)
            let stride = StridePolicy.fixed(loop.stride(workers: runtime.workers))
            perform = { count in
                for _ in 0..<count {
                    runtime.apply(iterations: loop.iterations, stride: stride, pieces: { piece in body.run(piece) })
                }
            }
            problem = { performed in
                do {
                    try body.tally.completed(
                        performed - body.tally.loops,
                        loop: "apply over \(loop.iterations) iterations, stride \(loop.stride), on \(R.id)")
                    return nil
                } catch { return "\(error)" }
            }
        case .pthreadMutex, .posixSemaphore, .swiftMutex, .threadSpawn:
            throw WorkloadError.notApplicable("\(operation.rawValue) needs no backend")
        case .actorCall, .taskGroupChild, .task:
            throw WorkloadError.notApplicable("\(operation.rawValue) is written by `AsyncDirectOperation`")
        }
    }

    deinit { counter.pointer.deallocate() }

    func run(_ count: Int) throws {
        try perform(count)
        performed += count
        if let problem = problem(performed) { throw WorkloadError.verificationFailed(problem) }
    }

    func finish() throws {
        idle?.stop()
        runtime.shutdown()
        links?.cut()
        if let problem = problem(performed) { throw WorkloadError.verificationFailed(problem) }
    }
}

/// The chain of the `direct` reference: each link one `FunctionBlock` made once that submits
/// itself again, as the suite's chain does (`ChainLinks`), the last one signalling the measuring
/// thread on one of the runtime's semaphores.
///
/// The block is the runtime's plain fastest submission: a function and its context, nothing
/// allocated or retained per link. It was a closure kept in a `var` and capturing `self`
/// strongly: every link copied it (a retain and a release of its context, from whichever CPU ran
/// the link) and retained `self` again, which made this reference 3–5 times the suite's figure on
/// our pools (issue 49), a reference that validated nothing.
///
/// `@unchecked Sendable`: as `ChainStep`; the rest is immutable or atomic.
final class DirectChain<R: ConcurrencyRuntime>: ChainStep, @unchecked Sendable {
    private let runtime: R
    private let linksLeft = Atomic<Int>(0)
    private let linksRun = Atomic<Int>(0)
    private let done: R.Semaphore

    init(runtime: R) {
        self.runtime = runtime
        done = runtime.makeSemaphore(value: 0)
        super.init()
    }

    override func step() {
        // relaxed: consecutive links are ordered by the submission between them, and the
        // semaphore publishes the last one to the measuring thread.
        linksRun.wrappingAdd(1, ordering: .relaxed)
        if linksLeft.wrappingSubtract(1, ordering: .relaxed).newValue > 0 {
            runtime.async(block)
        } else {
            done.signal()
        }
    }

    func run(_ count: Int) throws {
        guard count > 0 else { return }
        linksLeft.store(count, ordering: .relaxed)
        runtime.async(block)
        guard done.wait(timeout: .seconds(60)) == .success else {
            throw WorkloadError.verificationFailed("a chain of \(count) links did not finish within 60 seconds")
        }
    }

    func problem(after performed: Int) -> String? {
        let ran = linksRun.load(ordering: .relaxed)
        return ran == performed ? nil : "\(ran) links ran, \(performed) were submitted"
    }
}

/// The `outside` and `group-fan-out` references: one empty task, made once, submitted from the
/// measuring thread; each counts itself. The `outside` task is a `FunctionBlock`, as the suite's
/// is (`SpawnFromOutside`): a closure made per run and capturing this object cost a retain and a
/// release per task, and read about twice the suite's figure (issue 49).
final class DirectTasks<R: ConcurrencyRuntime>: Sendable {
    private let runtime: R
    private let group: R.Group
    private let tally: TaskTally
    private let task: FunctionBlock
    /// The fan-out's tasks count themselves here, with the suite's own task (`FanOutTally.task`).
    private let fanOutTally = FanOutTally()
    /// Tasks the `outside` runs submitted so far (the measuring thread's count): those that ran
    /// are this less what `tally.left` still has due, which a task that ran twice takes below zero.
    private let outsideSubmitted = Atomic<Int>(0)
    /// Fan-out rounds whose wait returned before the round's tasks were all counted.
    private let earlyWaits = Atomic<Int>(0)

    init(runtime: R) {
        self.runtime = runtime
        group = runtime.makeGroup()
        let done = runtime.makeSemaphore(value: 0)
        tally = TaskTally(signal: { done.signal() }, wait: { done.wait(timeout: $0) == .success })
        task = tally.block
    }

    /// `count` tasks with `async`; the last of them wakes the measuring thread.
    func runOutside(_ count: Int) throws {
        guard count > 0 else { return }
        // Added, not stored: a task of an earlier run that ran twice stays counted.
        tally.left.wrappingAdd(count, ordering: .relaxed)
        outsideSubmitted.wrappingAdd(count, ordering: .relaxed)
        for _ in 0..<count { runtime.async(task) }
        guard tally.wait(.seconds(60)) else {
            throw WorkloadError.verificationFailed(
                "\(count - tally.left.load(ordering: .relaxed)) of \(count) tasks ran within 60 seconds")
        }
    }

    /// Rounds of 2 × workers tasks with `async(group:)`, each round waited for and checked against
    /// the tally, as the workload and Go's program check it (the read brings the tally's line to
    /// this thread once a round, which they pay too). The task is a `FunctionBlock` made once, as
    /// the suite's is (`GroupFanOut`): a closure capturing the tally cost a retain and a release
    /// per task, and read 1.7–2.2× the suite's figure.
    func runFanOut(_ count: Int) {
        let width = 2 * max(1, runtime.workers)
        let task = fanOutTally.task
        // From the tally itself: a task of an earlier run that ran twice is `problem`'s to report.
        var submitted = fanOutTally.ran.load(ordering: .relaxed)
        for wave in Swift.stride(from: count, to: 0, by: -width) {
            let members = min(width, wave)
            for _ in 0..<members { runtime.async(group: group, task) }
            submitted += members
            group.wait()
            if fanOutTally.ran.load(ordering: .relaxed) < submitted { earlyWaits.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    /// One operation runs here, `outside` or `group-fan-out`, so one of the two counts is 0.
    func problem(after performed: Int) -> String? {
        let early = earlyWaits.load(ordering: .relaxed)
        if early > 0 { return "\(early) group waits returned before their round's tasks had all run" }
        let outside = outsideSubmitted.load(ordering: .relaxed) - tally.left.load(ordering: .acquiring)
        let ran = outside + fanOutTally.ran.load(ordering: .relaxed)
        return ran == performed ? nil : "\(ran) tasks ran, \(performed) were submitted"
    }
}

/// What the `outside` reference's tasks count, outside generic code, so that a task can be a C
/// function: `block` reaches this object unretained (`DirectTasks` holds it while tasks run).
final class TaskTally: Sendable {
    let left = Atomic<Int>(0)
    private let signal: @Sendable () -> Void
    let wait: @Sendable (Duration) -> Bool

    init(signal: @escaping @Sendable () -> Void, wait: @escaping @Sendable (Duration) -> Bool) {
        self.signal = signal
        self.wait = wait
    }

    /// One task: counts itself down, the one atomic read-modify-write the suite's task does
    /// (`CountdownLatch.arrive`); the last wakes the measuring thread (acquiring and releasing:
    /// every task's count reaches the one that signals). A second count per task, of arrivals,
    /// made this reference read 92 ns a task beside the suite's 72 (work-stealing, Intel VM).
    func arrive() {
        if left.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { signal() }
    }

    var block: FunctionBlock {
        FunctionBlock(
            context: Unmanaged.passUnretained(self).toOpaque(), Self.function, closure: { [self] in arrive() })
    }

    private static let function: WorkFunction = { context in
        Unmanaged<TaskTally>.fromOpaque(context.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.arrive() }
    }
}

/// The `async-drain` reference's block: adds one to the `Int` its context points at.
private let incrementCounter: WorkFunction = { context in
    context.unsafelyUnwrapped.assumingMemoryBound(to: Int.self).pointee &+= 1
}

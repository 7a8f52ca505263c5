#if canImport(Glibc)
import Glibc
#endif
import NIOPosix
import PThreadPrimitives
import RuntimeKit

/// Backend `nio-global`: Swift concurrency with NIO's singleton event loop group installed as
/// Swift's global executor, the choice NIO offers servers (one set of threads for I/O and tasks).
/// Otherwise it is `swift-concurrency`: `async` is a detached task, serial queues are strands of
/// tasks, semaphores and groups are mutex + condition, its executors are Swift's defaults (now
/// NIO's loops), and the same waits are unsupported.
///
/// The takeover happens in `prepareProcess()`, which `bench`'s children call before anything
/// touches Swift concurrency (`GlobalExecutorTakeover`); a child where it fails reports the case
/// not applicable. A runtime made in a process that did not take over (a test process) runs its
/// tasks on Swift's own pool, and says so on standard error when it first submits one.
public final class NIOGlobalRuntime: PoolBackedRuntime, @unchecked Sendable {
    public static let id = "nio-global"
    public static let summary =
        "Swift concurrency with NIO's singleton event loop group as Swift's global executor; queues as strands"
    public static let unsupported: [RuntimeBehaviour: String] = [
        .blockingWaitInsideWork: "tasks run on NIO's singleton loops, a fixed set that never grows: a task that "
            + "blocks until another task runs can leave no loop to run it (deadlock)",
        .waitWithEveryWorkerWaiting: "NIO's singleton group never adds a loop: with every loop blocked in a wait, "
            + "the queued task that would wake them never runs",
        .waitUnseenByRuntime: "NIO's singleton group never adds a loop and has no monitor: with every loop blocked "
            + "where NIO cannot see, the queued task that would wake them never runs",
        .shutdownWaitsForWork: "NIO's singleton group lives as long as the process: shutdown() cannot join its "
            + "threads or wait for detached tasks",
        .workerCountControl:
            "NIO's singleton group has NIOSingletons.groupLoopCountSuggestion loops (System.coreCount, "
            + "one per usable CPU); workers reports that number",
        .ownExecutors: "this backend stands for Swift's default executors, which NIO's loops have taken over",
    ]

    public let workers: Int
    /// Whether NIO took over Swift's global executor in this process when the runtime was made.
    public let onNIO: Bool

    public static func prepareProcess() throws(RuntimeUnavailable) {
        if case .refused(let why) = GlobalExecutorTakeover.install() { throw RuntimeUnavailable(why) }
    }

    public init(workers: Int) {
        _ = resolvedWorkerCount(workers)
        switch GlobalExecutorTakeover.state {
        case .installed(let loops, _):
            self.workers = loops
            onNIO = true
        case .notAttempted, .refused:
            self.workers = activeProcessorCount
            onNIO = false
        }
    }

    public func async(_ work: @escaping @Sendable () -> Void) {
        if !onNIO { Self.sayNotInstalledOnce() }
        Task.detached { work() }
    }

    public func shutdown() {}

    /// Swift's default: NIO's loops once they have taken over.
    public func makeTaskExecutor() -> (any TaskExecutor)? { nil }

    /// Swift's default: an actor keeps its default executor.
    public func makeSerialExecutor(label: String) -> (any SerialExecutor)? { nil }

    private static let notInstalledSaid = PThreadMutex()
    nonisolated(unsafe) private static var said = false

    private static func sayNotInstalledOnce() {
        let first = notInstalledSaid.withLock {
            defer { said = true }
            return !said
        }
        guard first else { return }
        let why =
            switch GlobalExecutorTakeover.state {
            case .refused(let reason): reason
            default: "prepareProcess() was not called in this process"
            }
        let note =
            "\(id): NIO is not Swift's global executor in this process (\(why)): its tasks run on Swift's own pool\n"
        _ = note.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CThreadInfo
import NIOCore
import NIOPosix
import PThreadPrimitives
import RuntimeKit

/// NIO's singleton event loop group installed as Swift's global executor, for `nio-global`, and
/// the evidence that Swift then uses it. NIO installs it through the Swift runtime's
/// `swift_task_enqueueGlobal_hook` (NIOSingletons'
/// `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`): once per process,
/// before any task exists, or tasks already on Swift's pool stay there.
///
/// So `install()` refuses in a process that runs more than one thread (a test process: Swift
/// Testing's tasks are on Swift's pool already) and, having installed, checks that a new task
/// really runs on one of the singleton's loops. Each outcome is kept and said, never assumed.
public enum GlobalExecutorTakeover {
    public enum State: Sendable, Equatable {
        /// Nothing asked for it in this process (only `bench`'s children do).
        case notAttempted
        /// Tasks run on NIO's singleton loops: `loops` of them; `thread` is the name of the thread
        /// the check's task ran on.
        case installed(loops: Int, thread: String)
        /// Not NIO's: why.
        case refused(String)
    }

    /// Prefix of the singleton group's thread names (NIO names them `NIO-SGLTN-<group>-#<loop>`).
    public static let singletonThreadPrefix = "NIO-SGLTN-"
    /// How long the check waits for its task: a task that never runs is a refusal, not a hang.
    static let checkTimeout: Duration = .seconds(10)

    private static let lock = PThreadMutex()
    nonisolated(unsafe) private static var current = State.notAttempted

    public static var state: State { lock.withLock { current } }

    /// Installs NIO as Swift's global executor once, and checks it. A second call returns the
    /// first one's outcome.
    @discardableResult
    public static func install() -> State {
        lock.withLock {
            if current == .notAttempted { current = attempt() }
            return current
        }
    }

    private static func attempt() -> State {
        let threads = threadCount()
        guard threads == 1 else {
            return .refused(
                "\(threads.map(String.init) ?? "an unknown number of") threads run in this process already (Swift's "
                    + "pool may be among them): NIO can take over Swift's global executor only before any task exists")
        }
        guard NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() else {
            return .refused(
                "NIO could not install itself as Swift's global executor (the Swift runtime's "
                    + "swift_task_enqueueGlobal_hook is missing or another hook is set)")
        }
        let singleton = MultiThreadedEventLoopGroup.singleton
        let loops = Array(singleton.makeIterator())
        let seen = MutexSemaphore(value: 0)
        let found = Observation()
        Task.detached {
            let current = MultiThreadedEventLoopGroup.currentEventLoop
            found.record(onSingleton: loops.contains { $0 === current }, thread: currentThreadName())
            seen.signal()
        }
        guard seen.wait(timeout: checkTimeout) == .success else {
            return .refused("NIO installed its hook, but a task created after it did not run within \(checkTimeout)")
        }
        let (onSingleton, thread) = found.value
        guard onSingleton else {
            return .refused(
                "NIO installed its hook, but this Swift runtime did not call it: a task created after it ran on "
                    + "thread '\(thread)', not on one of NIO's singleton loops")
        }
        return .installed(loops: loops.count, thread: thread)
    }

    /// The `Threads:` line of /proc/self/status, or nil when it cannot be read.
    static func threadCount() -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("Threads:") {
                return Int(text.dropFirst("Threads:".count).filter { !$0.isWhitespace })
            }
        }
        return nil
    }
}

/// The calling thread's name, as the kernel keeps it (at most 15 bytes).
public func currentThreadName() -> String {
    var buffer = [CChar](repeating: 0, count: 32)
    guard rb_thread_get_name(&buffer, buffer.count) == 0 else { return "?" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// What the check's task saw, handed to the installing thread under a pthread mutex
/// (ThreadSanitizer does not see `Synchronization.Mutex`).
private final class Observation: @unchecked Sendable {
    private let lock = PThreadMutex()
    private var onSingleton = false
    private var thread = ""

    func record(onSingleton: Bool, thread: String) {
        lock.withLock {
            self.onSingleton = onSingleton
            self.thread = thread
        }
    }

    var value: (Bool, String) { lock.withLock { (onSingleton, thread) } }
}

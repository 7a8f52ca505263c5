import CThreadInfo
#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import Synchronization

/// How long a test waits for something that should happen at once before calling it a hang.
/// Generous: ThreadSanitizer on a busy 2-core machine slows everything many times.
let patience: Duration = .seconds(60)

/// A failed expectation inside a block, kept for the test thread to report.
final class Failures: @unchecked Sendable {
    private let lock = PThreadMutex()
    private var messages: [String] = []
    func record(_ message: String) { lock.withLock { messages.append(message) } }
    func check(_ condition: Bool, _ message: @autoclosure () -> String) { if !condition { record(message()) } }
    var all: [String] { lock.withLock { messages } }
}

/// A one-shot latch: `open` releases every `wait`, now and later.
final class Latch: @unchecked Sendable {
    private let lock = PThreadMutex()
    private let condition = PThreadCondition()
    private var isOpen = false
    func open() {
        lock.withLock {
            isOpen = true; condition.broadcast()
        }
    }
    /// False when `timeout` passed first.
    @discardableResult
    func wait(timeout: Duration = patience) -> Bool {
        let deadline = MonotonicInstant.after(timeout)
        lock.lock()
        defer { lock.unlock() }
        while !isOpen { if !condition.wait(lock, until: deadline) { return isOpen } }
        return true
    }
}

/// Counts blocks running at once and remembers the most.
final class ConcurrencyMeter: @unchecked Sendable {
    private let running = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)
    func enter() {
        let now = running.add(1, ordering: .sequentiallyConsistent).newValue
        var seen = peak.load(ordering: .relaxed)
        while now > seen {
            let (done, current) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if done { break }
            seen = current
        }
    }
    func leave() { running.subtract(1, ordering: .sequentiallyConsistent) }
    var maximum: Int { peak.load(ordering: .relaxed) }
    /// Runs `body` counted, spinning `microseconds` inside so overlaps have time to happen.
    func measure(spinning microseconds: Int = 0, _ body: () -> Void = {}) {
        enter()
        body()
        if microseconds > 0 { spin(microseconds) }
        leave()
    }
}

/// Busy-waits (a block that "works" without blocking its thread).
func spin(_ microseconds: Int) {
    let end = MonotonicInstant.after(.microseconds(microseconds))
    while MonotonicInstant.now < end {}
}

/// `parties` threads meet: each `arrive` returns true once all have arrived, false if `timeout`
/// passed first. Proves that blocks ran at the same time.
final class Rendezvous: @unchecked Sendable {
    private let lock = PThreadMutex()
    private let condition = PThreadCondition()
    private var arrived = 0
    private let parties: Int
    init(parties: Int) { self.parties = parties }
    func arrive(timeout: Duration = patience) -> Bool {
        let deadline = MonotonicInstant.after(timeout)
        lock.lock()
        defer { lock.unlock() }
        arrived += 1
        if arrived >= parties { condition.broadcast(); return true }
        while arrived < parties { if !condition.wait(lock, until: deadline) { return arrived >= parties } }
        return true
    }
}

/// A thread-safe list of what happened, in order.
final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = PThreadMutex()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
    var count: Int { lock.withLock { items.count } }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = patience, _ condition: () -> Bool) -> Bool {
    let deadline = MonotonicInstant.after(timeout)
    while !condition() {
        if MonotonicInstant.now >= deadline { return false }
        usleep(200)
    }
    return true
}

/// True when called on `thread`.
func isCurrent(_ thread: pthread_t) -> Bool { pthread_equal(thread, pthread_self()) != 0 }

/// The calling thread's name (what `top -H` and gdb show; on Linux at most 15 bytes), "" if it
/// cannot be read.
func threadName() -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    guard rb_thread_get_name(&buffer, buffer.count) == 0 else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Names the calling thread (Linux keeps at most 15 bytes). False if it could not.
@discardableResult
func setThreadName(_ name: String) -> Bool { rb_thread_set_name(name) == 0 }

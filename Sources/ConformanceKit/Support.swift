#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import Synchronization

/// Counts how many times each index ran. Each index is written by the one block that owns it,
/// so a correct backend gives no two threads the same slot; a backend that runs an index twice
/// shows up here (and, if the two runs overlap, to ThreadSanitizer as a race).
final class RunLedger: @unchecked Sendable {
    private let counts: UnsafeMutableBufferPointer<Int>

    init(count: Int) {
        counts = .allocate(capacity: count)
        counts.initialize(repeating: 0)
    }

    deinit { counts.deallocate() }

    func record(_ index: Int) { counts[index] += 1 }

    /// nil when every index ran exactly once; otherwise a summary of the first offenders.
    func mistakes() -> String? {
        var bad: [String] = []
        var badCount = 0
        for (index, count) in counts.enumerated() where count != 1 {
            badCount += 1
            if bad.count < 5 { bad.append("index \(index) ran \(count) times") }
        }
        return badCount == 0
            ? nil : "\(badCount) of \(counts.count) indices did not run exactly once: " + bad.joined(separator: ", ")
    }
}

/// A gate that blocks callers of `pass()` until `open()`; stays open afterwards.
final class Gate: Sendable {
    private let turnstile = MutexSemaphore(value: 0)

    func open() { turnstile.signal() }

    func pass() {
        turnstile.wait()
        turnstile.signal()  // let the next one through too
    }
}

/// A value written by one block and read by later blocks of the same serial queue, with no
/// synchronization of its own: the queue's ordering is what makes it safe (and TSan checks that).
final class Unsynchronized<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Burns roughly `iterations` loop trips, so a block takes a little time without sleeping.
@inline(never)
func spin(_ iterations: Int) {
    var x = 0
    for i in 0..<iterations { x &+= i }
    blackHole(x)
}

@inline(never)
func blackHole(_ x: Int) { _ = x }

extension Atomic where Value == Int {
    /// Raises the stored maximum to at least `candidate`.
    func raiseMax(to candidate: Int) {
        var current = load(ordering: .relaxed)
        while candidate > current {
            let (exchanged, original) = compareExchange(expected: current, desired: candidate, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}

/// Sleeps the calling (test-owned) thread; used only to give another thread time, never to
/// decide a verdict by timing.
func sleepBriefly(milliseconds: Int) {
    var request = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 { request = remaining }
}

/// Where `order` first differs from `0..<count`, for a message.
func firstMismatch(_ order: [Int], _ count: Int) -> String {
    for (position, value) in order.enumerated() where value != position {
        return "position \(position) holds \(value)"
    }
    return order.count < count ? "position \(order.count) missing" : "none"
}

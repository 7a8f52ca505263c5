import Harness
import Results

/// One counter per index of a loop that runs again and again: after `loops` complete loops every
/// counter must read `loops`. A skipped index reads less, a repeated one more, and an index
/// outside `0..<iterations` lands in an extra slot that must stay zero.
///
/// The counters are plain `UInt32`s, not atomics, on purpose: the increment is part of every
/// body, and an atomic read-modify-write (a locked instruction, many times the cost of a plain
/// increment) would be most of an empty or 10 ns body and hide the scheduling cost being
/// measured. Plain writes are safe because
/// (1) distinct indices are distinct elements, so a correct `apply` never lets two threads write
/// the same one, and (2) `apply` returns only after every body has returned, through the
/// backend's own completion wait, so one loop's writes happen before the next loop's and before
/// `verify()` reads them. A wrong backend that runs one index twice *at the same time* is a data
/// race here: ThreadSanitizer reports it in the tests, and in a release build the two increments
/// lose one only if they overlap within a few cycles; a repeat in sequence always shows.
/// Four bytes per index keep 100,000 counters (400 KB) inside this machine's 2 MB L2, so the
/// counters do not turn an empty body into a memory-bandwidth test.
public final class IterationLedger {
    public let iterations: Int
    /// `iterations + 1` counters; the last one counts out-of-range indices.
    private let counts: UnsafeMutableBufferPointer<UInt32>
    /// Loops recorded so far: what every in-range counter should read.
    public private(set) var loops = 0

    /// Allocates and zeroes the counters now, so their page faults happen before any timing.
    /// - Precondition: `iterations >= 0`.
    public init(iterations: Int) {
        precondition(iterations >= 0, "a loop has zero or more iterations, got \(iterations)")
        self.iterations = iterations
        counts = .allocate(capacity: iterations + 1)
        counts.initialize(repeating: 0)
    }

    deinit { counts.deallocate() }

    /// What a loop body captures to record its index: a copy of the counters' address, so the
    /// body does not go through this object on every iteration.
    public struct Tally: @unchecked Sendable {
        fileprivate let counts: UnsafeMutablePointer<UInt32>
        fileprivate let iterations: UInt

        /// Counts one run of `index`. An index outside `0..<iterations` (negative ones wrap to huge
        /// unsigned values) is counted in the extra slot: a wrong backend cannot write out of bounds.
        @inline(__always)
        public func record(_ index: Int) {
            counts[Int(min(UInt(bitPattern: index), iterations))] &+= 1
        }
    }

    public var tally: Tally { Tally(counts: counts.baseAddress!, iterations: UInt(iterations)) }

    /// Notes that `count` more complete loops have been recorded (call after they returned).
    public func completed(_ count: Int) {
        precondition(loops + count < Int(UInt32.max), "more loops than a 32-bit counter holds")
        loops += count
    }

    /// Throws `verificationFailed` naming the first indices that did not run exactly once per loop.
    /// - Complexity: O(iterations).
    public func verify(loop description: String) throws(WorkloadError) {
        let expected = UInt32(loops)
        var wrong = 0
        var examples: [String] = []
        for index in 0..<iterations where counts[index] != expected {
            wrong += 1
            if examples.count < 5 { examples.append("index \(index) ran \(counts[index]) times") }
        }
        var problems: [String] = []
        if wrong > 0 {
            problems.append(
                "\(wrong) of \(iterations) indices did not run exactly once per loop (\(loops) loops): "
                    + examples.joined(separator: ", ") + (wrong > examples.count ? ", …" : ""))
        }
        if counts[iterations] != 0 {
            problems.append("the body was called \(counts[iterations]) times with an index outside 0..<\(iterations)")
        }
        if !problems.isEmpty {
            throw .verificationFailed("\(description): " + problems.joined(separator: "; "))
        }
    }
}

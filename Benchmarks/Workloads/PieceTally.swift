import CReferences
import Harness
import Results

/// The cheap check of every timed loop (Benchmarks/CReferences/include/PieceTally.h): each thread
/// adds the pieces it ran, as a count and an index sum, to a slot 128 bytes from any other
/// thread's, so the check shares no cache line between CPUs. After `loops` loops of `iterations`
/// the totals must be `loops × iterations` and `loops × (0 + 1 + … + iterations-1)`, modulo 2^64.
///
/// It catches a skipped or repeated index (the count), and one index skipped while another runs
/// twice (the sum); errors that cancel in both escape it, which is why `ApplyOperation` also runs
/// one loop outside the timed region against the exact `IterationLedger`.
public final class PieceTally: @unchecked Sendable {
    let tally: UnsafeMutablePointer<rb_piece_tally>
    public let iterations: Int
    public private(set) var loops = 0

    public init(iterations: Int) {
        precondition(iterations >= 0, "a loop has zero or more iterations, got \(iterations)")
        guard let tally = rb_piece_tally_create() else { fatalError("out of memory for a piece tally") }
        self.tally = tally
        self.iterations = iterations
    }

    deinit { rb_piece_tally_destroy(tally) }

    /// What a loop's piece captures: the tally's address, not this object.
    public struct Recorder: @unchecked Sendable {
        let tally: UnsafeMutablePointer<rb_piece_tally>
        @inline(__always)
        public func record(_ piece: Range<Int>) { rb_piece_tally_record(tally, piece.lowerBound, piece.upperBound) }
    }

    public var recorder: Recorder { Recorder(tally: tally) }

    /// Body calls recorded so far (read once the loops returned, like the totals).
    public var pieces: Int { Int(rb_piece_tally_pieces(tally)) }

    /// Notes `count` more complete loops and checks the totals. Call once the loops returned.
    public func completed(_ count: Int, loop description: @autoclosure () -> String) throws(WorkloadError) {
        loops += count
        var count: UInt64 = 0, sum: UInt64 = 0
        rb_piece_tally_totals(tally, &count, &sum)
        let n = UInt64(iterations), l = UInt64(loops)
        let loopSum = n % 2 == 0 ? (n / 2) &* (n &- 1) : n &* ((n &- 1) / 2)
        guard count == l &* n, sum == l &* loopSum else {
            throw .verificationFailed(
                "\(description()): after \(loops) loops \(count) indices ran (expected \(l &* n)), "
                    + "index sum \(sum) (expected \(l &* loopSum))")
        }
    }
}

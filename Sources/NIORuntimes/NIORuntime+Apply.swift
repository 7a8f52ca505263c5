import PThreadPrimitives
import RuntimeKit

extension NIORuntime {
    /// `ParallelLoop` with its helpers on the loops other than the caller's: a helper queued on
    /// the loop that runs the caller could start only after the loop is over. The caller claims
    /// pieces too, so the loop finishes even with every other loop busy.
    @_disfavoredOverload
    public func apply(iterations: Int, stride: StridePolicy, pieces body: (Range<Int>) -> Void) {
        var helpers = HelperPlacement(lanes)
        ParallelLoop.run(
            iterations: iterations, stride: stride, workers: workers, submit: { helpers.submit($0) }, pieces: body)
    }

    public func apply(iterations: Int, stride: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction)
    {
        var helpers = HelperPlacement(lanes)
        ParallelLoop.run(
            iterations: iterations, stride: stride, workers: workers, submit: { helpers.submit($0) },
            context: context, piece)
    }
}

/// Deals one apply's helpers to the lanes in turn, skipping the caller's own loop: at most
/// `workers - 1` helpers, so each lands on a different loop.
private struct HelperPlacement {
    let lanes: [LoopLane]
    var next = 0

    init(_ lanes: [LoopLane]) { self.lanes = lanes }

    mutating func submit(_ helper: @escaping @Sendable () -> Void) {
        var lane = lanes[next % lanes.count]
        next += 1
        if lane.loop.inEventLoop {
            lane = lanes[next % lanes.count]
            next += 1
        }
        lane.submit(helper)
    }
}

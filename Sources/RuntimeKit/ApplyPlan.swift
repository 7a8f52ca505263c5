/// An `apply` cut into pieces: `pieces` runs of `stride` consecutive iterations (the last one may
/// be shorter). Every backend's `apply` starts from one, so all of them cut a loop the same way
/// for a given policy and worker count.
public struct ApplyPlan: Sendable, Equatable {
    public let iterations: Int
    public let stride: Int
    public let pieces: Int

    /// - Precondition: `iterations >= 0`; a fixed stride is at least 1.
    public init(iterations: Int, stride policy: StridePolicy, workers: Int) {
        precondition(iterations >= 0, "apply over a negative number of iterations (\(iterations))")
        self.iterations = iterations
        stride = policy.iterationsPerPiece(iterations: iterations, workers: workers)
        pieces = iterations == 0 ? 0 : (iterations + stride - 1) / stride
    }

    /// The iterations of piece `piece`. O(1).
    @inlinable
    public func indices(ofPiece piece: Int) -> Range<Int> {
        let start = piece * stride
        return start..<min(start + stride, iterations)
    }
}

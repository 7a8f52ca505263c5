/// How `apply` cuts its iterations into pieces: the guide's "striding" (several iterations per
/// scheduled block, so a small body does not pay the scheduling cost on every iteration).
public enum StridePolicy: Sendable, Hashable, CustomStringConvertible {
    /// Pieces of exactly `n` consecutive iterations (the last one may be shorter).
    /// - Precondition: `n >= 1`.
    case fixed(Int)
    /// The backend chooses.
    case automatic

    /// Pieces per worker when a backend without its own policy resolves `.automatic`: enough that
    /// a worker delayed by the OS (a 2-core VM is often busy) leaves little of the loop behind,
    /// few enough that scheduling stays a rounding error next to a large loop's bodies.
    public static let automaticPiecesPerWorker = 8

    /// The number of iterations per piece for `iterations` spread over `workers` threads.
    public func iterationsPerPiece(iterations: Int, workers: Int) -> Int {
        switch self {
        case .fixed(let n):
            precondition(n >= 1, "StridePolicy.fixed(\(n)): a stride must be at least 1")
            return n
        case .automatic:
            let pieces = max(1, workers) * Self.automaticPiecesPerWorker
            return max(1, (iterations + pieces - 1) / pieces)
        }
    }

    public var description: String {
        switch self {
        case .fixed(let n): "\(n)"
        case .automatic: "auto"
        }
    }
}

/// How `join` decides whether to make its right half stealable.
public enum JoinSplitting: Sendable, Hashable, CustomStringConvertible {
    /// Always push the right half (rayon's `join`): every join is a steal opportunity, and every
    /// join pays a deque push and a fenced pop.
    case eager
    /// Push the right half only while the worker's own deque holds fewer than `threshold` jobs
    /// (lazy binary splitting: Tzannes, Caragea, Barua & Vishkin, "Lazy Binary-Splitting", PPoPP
    /// 2010). A worker that already offers that much work to thieves runs both halves itself, for
    /// the price of two calls; thieves still find the oldest, largest halves at the top of its deque.
    /// The cost: at most `threshold` steal opportunities per busy worker at a time.
    case lazy(threshold: Int)

    /// Lazy with one job kept stealable per worker.
    public static let lazy = JoinSplitting.lazy(threshold: 1)

    public var description: String {
        switch self {
        case .eager: "eager"
        case .lazy(let threshold): "lazy(\(threshold))"
        }
    }
}

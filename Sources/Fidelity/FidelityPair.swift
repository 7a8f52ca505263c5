import Results

/// A suite case and the `direct` case that performs the same operation directly against the same
/// runtime: the two halves of one row of `bench fidelity` and of the report's fidelity table.
public struct FidelityPair: Sendable, Hashable {
    /// What one operation is, in the domain's words ("serial queue sync, empty section").
    public let operation: String
    /// The backend both cases run on ("none" for a primitive without one).
    public let backend: String
    /// How the direct case calls the runtime.
    public let layer: DirectLayer
    public let suiteCase: BenchmarkCase
    public let directCase: BenchmarkCase
    /// Operations per case operation: an apply case times one whole loop, and its rows read per
    /// iteration, so the bound's slack means the same thing as for a single call.
    public let unitsPerOperation: Int
    /// What one figure of the row is ("ns per section", "ns per iteration").
    public let unit: String
    /// Whether the bytes each side allocates per operation are comparable: not where the runtime
    /// allocates by how the work was scheduled (libdispatch's apply allocates for each thread it
    /// asks to help, so a slower loop draws more threads and allocates more with the same calls),
    /// only where each operation makes the same calls every time.
    public let allocationsComparable: Bool
}

/// How a `direct` case reaches the runtime: the three layers a fidelity table shows.
public enum DirectLayer: String, Sendable, Codable, Hashable, CustomStringConvertible {
    /// C calling the runtime's C entry points (pthreads, POSIX semaphores, libdispatch's `_f` forms).
    case c = "C"
    /// Idiomatic Swift over a Swift API (the `Dispatch` overlay, `Mutex.withLock`).
    case swift = "idiomatic Swift"
    /// One of our own backends, its concrete type called in a plain loop.
    case concrete = "concrete type"
    /// Plain async Swift on the backend's executors (Swift's own on swift-concurrency), without the
    /// workload's driver, deadline and progress.
    case executors = "plain Swift on its executors"

    public var description: String { rawValue }
}

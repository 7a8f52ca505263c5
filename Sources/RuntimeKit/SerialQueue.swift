/// A queue that runs its blocks one at a time, in submission order, on whatever worker is free.
/// The writes of a block are visible to the blocks after it.
public protocol SerialQueue: Sendable {
    /// The label given at creation (copied).
    var label: String { get }
    /// Appends `work` to the queue and returns at once.
    func async(_ work: @escaping @Sendable () -> Void)
    /// Runs `work` on the calling thread once every block submitted before it has finished, with
    /// the queue held so no other block of it runs meanwhile; returns its value or throws its error.
    /// Calling `sync` on the queue that is running the caller deadlocks, as in libdispatch.
    func sync<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> T
}

/// A runtime that offers rayon's `join`: two halves run potentially in parallel, the caller
/// taking part. Workloads that divide and conquer by join are generic over it and ask a backend
/// for it (`Backend.joining`), so they name no runtime; a backend without it is "not applicable".
public protocol JoiningRuntime: ConcurrencyRuntime {
    /// Creates the runtime with `workers` workers (0: one per active CPU), its joins deciding by
    /// `joinSplitting` whether to make their right half stealable.
    init(workers: Int, joinSplitting: JoinSplitting)

    /// Runs `left` and `right`, potentially in parallel, and returns both results.
    func join<A, B>(_ left: () -> A, _ right: () -> B) -> (A, B)

    /// `join` with the right half as a task value: no allocation, no reference counting.
    func join<A, Task: JoinTask>(_ left: () -> A, _ right: Task) -> (A, Task.Output)
}

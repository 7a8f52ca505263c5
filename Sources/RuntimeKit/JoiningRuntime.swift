/// A runtime that offers rayon's `join`: run two halves, potentially in parallel, and return both
/// results, with the right half stealable by an idle worker. Fork-join workloads are generic over
/// it (`Backend.joining` hands them the concrete type), so they name no backend; a backend
/// without it is "not applicable" to them.
public protocol JoiningRuntime: ConcurrencyRuntime {
    /// A pool of `workers` (0: one per active CPU) whose joins split as `joinSplitting` says.
    init(workers: Int, joinSplitting: JoinSplitting)

    /// Runs `left` here and `right` here or on a thief; returns when both are done. Making
    /// `right` escapable for a thief may cost allocations; the `JoinTask` form must not.
    func join<A, B>(_ left: () -> A, _ right: () -> B) -> (A, B)

    /// `join` with the right half as a task value, stored in the joiner's frame: no allocation,
    /// no reference counting.
    func join<A, Task: JoinTask>(_ left: () -> A, _ right: Task) -> (A, Task.Output)
}

/// The right half of a `join` as a value: what `join` pushes for thieves without allocating.
///
/// A closure can be handed to another thread only once it is escapable, and
/// `withoutActuallyEscaping` allocates a context for that on every call; a generic closure stored
/// in a struct is also re-abstracted through a heap-allocated thunk. A task value of a concrete
/// type is stored as it is, in the joiner's stack frame, so a join with a task costs no allocation
/// and no reference counting. `join(_:_:)` with two closures pays those costs; measure both (the
/// fork-join workload does).
public protocol JoinTask {
    associatedtype Output
    func run() -> Output
}

/// The right half of a `join` as a value: what `join` pushes for thieves without allocating.
///
/// A closure can be handed to another thread only once it is escapable, and
/// `withoutActuallyEscaping` allocates a context for that on every call; a generic closure stored
/// in a struct is also re-abstracted through a heap-allocated thunk. A task value of a concrete
/// type is stored as it is, in the joiner's stack frame, so a join with a task costs no allocation
/// and no reference counting. `join(_:_:)` with two closures pays those costs; measure both (the
/// fork-join workload does).
///
/// A task type may be generic (over its runtime, say): a join made in specialized code hands a
/// thief that specialization to run (a function of the type: its metatype crosses threads, hence
/// `SendableMetatype`).
public protocol JoinTask: SendableMetatype {
    associatedtype Output
    func run() -> Output
}

/// Runs `work` through `runner` (which calls its argument exactly once, on the calling thread,
/// e.g. inside `dispatch_sync_f`) and hands back `work`'s value or rethrows its typed error.
///
/// Lets every `SerialQueue.sync` forward a typed error across a C or non-throwing boundary
/// without boxing: the outcome lives on the caller's stack.
@inlinable
public func runCapturingOutcome<T, E: Error>(
    _ work: () throws(E) -> T,
    through runner: (() -> Void) -> Void
) throws(E) -> T {
    var outcome: Result<T, E>?
    // `runner` calls the thunk before returning, so `work` never actually escapes.
    withoutActuallyEscaping(work) { work in
        runner { outcome = Result(catching: work) }
    }
    guard let outcome else {
        preconditionFailure("a sync runner returned without running its block")
    }
    return try outcome.get()
}

import Synchronization

/// A fork-join scope: tasks spawned in it (and, from inside them, more tasks) all finish before
/// `StealingRuntime.scope` returns. rayon's `scope`, for work whose shape is not a binary split.
///
/// Spawned tasks are ordinary jobs: from a worker they go onto its own deque. The worker that
/// runs the scope, once the body has returned, helps (runs its own jobs, steals) until the count
/// of unfinished tasks reaches zero, so waiting for a scope never idles a worker.
public final class StealingScope: @unchecked Sendable {
    private unowned let runtime: StealingRuntime
    private let unfinished = Atomic<Int>(0)

    init(runtime: StealingRuntime) { self.runtime = runtime }

    /// Runs `work` on the pool as part of this scope; `work` may spawn more into the same scope.
    public func spawn(_ work: @escaping @Sendable (StealingScope) -> Void) {
        // relaxed: the count only has to be above zero before the job can run and finish; the
        // scope's owner reads it with acquire after the matching decrement's release.
        unfinished.wrappingAdd(1, ordering: .relaxed)
        runtime.submit(
            HeapJob.make { [self] in
                work(self)
                // releasing: the scope's owner that sees the count reach zero sees this task's writes.
                unfinished.wrappingSubtract(1, ordering: .releasing)
            })
    }

    /// Helps until every spawned task has finished.
    func waitForTasks(on worker: Worker) {
        runtime.help(on: worker) { unfinished.load(ordering: .acquiring) == 0 }
    }
}

extension StealingRuntime {
    /// Calls `body` with a scope and returns its result once every task spawned in the scope has
    /// finished. From outside the pool, the body runs on a worker and the caller waits.
    public func scope<T>(_ body: (StealingScope) -> T) -> T {
        onWorker { worker in
            let scope = StealingScope(runtime: self)
            let result = body(scope)
            scope.waitForTasks(on: worker)
            return result
        }
    }
}

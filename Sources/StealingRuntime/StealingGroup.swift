import PThreadPrimitives
import RuntimeKit

/// The work-stealing backend's group: `MutexGroup`'s semantics, but a worker that waits helps.
///
/// `wait()` on a worker runs jobs (its own deque first, then steals) until the group has emptied,
/// so a block that waits for the work it just spawned runs that work itself instead of blocking a
/// worker of a fixed pool, the deadlock a plain blocking wait invites. Only when there is nothing
/// to help with does it block, and then only after waking a sleeper for anything it left behind.
/// `wait(timeout:)` does not help: a helped job could run far past the deadline. Off the pool,
/// both simply block. Every wait that would block polls the group first, for as long as its
/// `SpinBudget` allows: a fan-out round's last task usually ends within a microsecond or two of
/// the wait, far sooner than a sleep on the condition variable and a wake-up through the kernel.
public final class StealingGroup: WorkGroup, @unchecked Sendable {
    public typealias NotifyQueue = Strand

    private let group = MutexGroup<Strand>()
    private let spin = SpinBudget()
    private unowned let runtime: StealingRuntime

    init(runtime: StealingRuntime) { self.runtime = runtime }

    public func enter() { group.enter() }

    public func leave() { group.leave() }

    public func wait() {
        guard let seen = group.pendingGeneration() else { return }
        if let worker = CurrentWorker.of(runtime) {
            while !group.hasEmptied(since: seen) {
                guard let job = worker.deque.pop() ?? runtime.stealOnce(for: worker) else { break }
                job.run()
            }
        }
        if spin.poll(until: { group.hasEmptied(since: seen) }) { return }
        runtime.publishBeforeBlocking()
        group.wait(untilEmptiedSince: seen)
    }

    public func wait(timeout: Duration) -> WaitResult {
        guard let seen = group.pendingGeneration() else { return .success }
        if spin.poll(until: { group.hasEmptied(since: seen) }) { return .success }
        runtime.publishBeforeBlocking()
        return group.wait(untilEmptiedSince: seen, timeout: timeout)
    }

    public func notify(on queue: Strand, _ work: @escaping @Sendable () -> Void) {
        group.notify(on: queue, work)
    }
}

import Harness
import Results
import RuntimeKit

/// `group`, pattern `enter-leave`: the measuring thread enters and leaves one group, nothing
/// waiting on it. One operation is one `enter` + `leave` pair: the bookkeeping every
/// `async(group:)` task pays twice over. The same group serves the whole case.
///
/// Verified in `finish()`: after every pair the group is empty, so `wait(timeout: .zero)`
/// succeeds at once. It runs only there: a wait per run would be timed with the pairs.
final class GroupEnterLeave<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let group: R.Group
    private var pairs = 0

    /// The pairs, as a closure made in `init`: `init` runs specialized for the backend, so the
    /// closure's calls are direct; `run`, reached through `any MeasuredOperation`, is not
    /// specialized, and calling the group from there would go through its witness table, a cost
    /// the same loop written directly does not pay (Benchmarks/README.md, "What the references
    /// found").
    private let perform: (Int) -> Void

    init(runtime: R) {
        self.runtime = runtime
        let group = runtime.makeGroup()
        self.group = group
        perform = { count in
            for _ in 0..<count {
                group.enter()
                group.leave()
            }
        }
    }

    func run(_ count: Int) throws {
        perform(count)
        pairs += count
    }

    func finish() throws {
        let emptied = group.wait(timeout: .zero)
        runtime.shutdown()
        guard emptied == .success else {
            throw WorkloadError.verificationFailed(
                "after \(pairs) enter + leave pairs the group is not empty: wait(timeout: 0) \(emptied)")
        }
    }
}

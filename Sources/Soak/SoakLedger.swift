import Synchronization

/// The exactly-once check of a soak round: one counter per task the round submits. Every task
/// adds one to its own counter; when the round has waited for everything, each counter of the
/// round must read exactly 1. A lost task reads 0, one run twice reads 2, and a task id outside
/// the round lands in an extra slot that must stay 0.
///
/// The counters are atomics (relaxed), unlike the workloads' `IterationLedger`: a soak measures
/// nothing, and a wrong backend that runs one task twice *at the same time* must still count 2
/// rather than lose an increment to a race. The round's waits (semaphore, group, `sync`, `apply`
/// returning) are what order the increments before `mistakes()` reads them; a backend whose
/// waits return too early shows up as a count of 0.
final class SoakLedger: @unchecked Sendable {
    /// The most tasks one round can record.
    let capacity: Int
    /// `capacity + 1` counters; the last one counts ids out of range.
    private let counts: UnsafeMutablePointer<Atomic<UInt32>>
    /// How many ids the current round uses: `0..<used`.
    private(set) var used = 0

    init(capacity: Int) {
        precondition(capacity >= 0, "a ledger holds zero or more tasks, got \(capacity)")
        self.capacity = capacity
        counts = .allocate(capacity: capacity + 1)
        for index in 0...capacity { (counts + index).initialize(to: Atomic(0)) }
    }

    deinit {
        counts.deinitialize(count: capacity + 1)
        counts.deallocate()
    }

    /// Zeroes the counters for a round of `tasks` tasks. Call before submitting any of them: the
    /// submission orders these stores before the tasks' increments.
    func beginRound(tasks: Int) {
        precondition(tasks <= capacity, "a round of \(tasks) tasks in a ledger of \(capacity)")
        for index in 0...capacity { counts[index].store(0, ordering: .relaxed) }
        used = tasks
    }

    /// Counts one run of task `id`.
    @inline(__always)
    func record(_ id: Int) {
        counts[Int(min(UInt(bitPattern: id), UInt(capacity)))].wrappingAdd(1, ordering: .relaxed)
    }

    /// How many of the round's tasks have run at least once (for a message about a hang).
    func ran() -> Int {
        (0..<used).count { counts[$0].load(ordering: .relaxed) > 0 }
    }

    /// nil when every task of the round ran exactly once; otherwise what went wrong, with the
    /// first few ids. Call only after the round has waited for all its tasks.
    func mistakes() -> String? {
        var lost = 0, repeated = 0, examples: [String] = []
        for id in 0..<capacity {
            let count = counts[id].load(ordering: .relaxed)
            let expected: UInt32 = id < used ? 1 : 0
            guard count != expected else { continue }
            if count < expected { lost += 1 } else { repeated += 1 }
            if examples.count < 5 { examples.append("task \(id) ran \(count) times") }
        }
        let outside = counts[capacity].load(ordering: .relaxed)
        guard lost + repeated > 0 || outside > 0 else { return nil }
        var parts: [String] = []
        if lost > 0 { parts.append("\(lost) of \(used) tasks never ran") }
        if repeated > 0 { parts.append("\(repeated) ran more than once") }
        if outside > 0 { parts.append("\(outside) runs of an id outside the round") }
        return parts.joined(separator: ", ") + (examples.isEmpty ? "" : " (" + examples.joined(separator: ", ") + ")")
    }
}

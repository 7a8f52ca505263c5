import Harness
import Results
import RuntimeKit

/// `semaphore`, pattern `uncontended`: the measuring thread alone takes and returns the one
/// permit of a semaphore of value 1. One operation is one `wait()` + `signal()`: the fast path
/// the guide says stays out of the kernel.
///
/// The wait has no deadline, on purpose: a timed wait computes its deadline (a clock read, about
/// as long as the fast path itself) before it can take the free permit, and that would be most of
/// what is measured. It cannot hang on a correct semaphore: the permit is always there. A
/// semaphore that loses it blocks the child until its deadline, which the parent records as hung.
///
/// An idle second thread exists throughout, for every kind: glibc takes cheaper paths while a
/// process has one thread (see `mutex-uncontended`), and a backend's runtime has threads, so
/// without it the kinds without a backend would be measured in a different process shape.
///
/// Verified in `finish()`: the semaphore holds exactly its one permit again (a semaphore that
/// counted a signal twice has two), and no `signal()` claimed to wake a waiter, there being none.
final class SemaphoreUncontended<S: CountingSemaphore>: MeasuredOperation {
    private let supply: SemaphoreSupply<S>
    private let semaphore: S
    private let idle = IdleThread()
    private var pairs = 0
    /// `signal()` calls that returned true.
    private var claimedWakeUps = 0
    /// The pairs, as a closure made in `init`, which runs specialized for `S`; it returns the
    /// signals that claimed a wake-up. `run`, reached through `any MeasuredOperation`, is not
    /// specialized, and calling the semaphore from there would go through its witness table, a
    /// cost the same loop written directly does not pay (Benchmarks/README.md, "What the
    /// references found").
    private let perform: (Int) -> Int

    init(supply: SemaphoreSupply<S>) {
        self.supply = supply
        let semaphore = supply.make(1)
        self.semaphore = semaphore
        perform = { count in
            var claimed = 0
            for _ in 0..<count {
                semaphore.wait()
                if semaphore.signal() { claimed += 1 }
            }
            return claimed
        }
    }

    func run(_ count: Int) throws {
        claimedWakeUps += perform(count)
        pairs += count
    }

    func finish() throws {
        idle.stop()
        let permits = semaphore.permitsRestoring(initialValue: 1)
        supply.close()
        var problems: [String] = []
        if permits != 1 { problems.append("\(permits == 2 ? "at least 2" : "\(permits)") permits left, not 1") }
        if claimedWakeUps > 0 {
            problems.append("\(claimedWakeUps) signals claimed to wake a waiter, with none waiting")
        }
        guard problems.isEmpty else {
            throw WorkloadError.verificationFailed(
                "after \(pairs) wait + signal pairs on a semaphore of value 1: " + problems.joined(separator: "; "))
        }
    }
}

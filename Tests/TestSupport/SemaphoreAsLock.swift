import PThreadPrimitives
import RuntimeKit
import Synchronization

/// What `semaphoreAsLock` saw: sections run, and the most threads that held the semaphore at once.
public struct SemaphoreAsLockOutcome: Sendable, Equatable {
    public let sections: Int
    public let mostHolders: Int

    public init(sections: Int, mostHolders: Int) {
        self.sections = sections
        self.mostHolders = mostHolders
    }
}

/// A plain counter, unsynchronized on purpose: the semaphore is what guards it.
private final class SectionCounter: @unchecked Sendable { var value = 0 }

/// `threads` threads each run `sectionsPerThread` sections under `semaphore` (one permit), each
/// adding one to a plain counter: with mutual exclusion the counter ends at every section once,
/// and under ThreadSanitizer a wait that did not order the previous holder's write is a race.
/// Counts decide, never timings.
public func semaphoreAsLock(_ semaphore: some CountingSemaphore, threads: Int, sectionsPerThread: Int)
    -> SemaphoreAsLockOutcome
{
    let counter = SectionCounter()
    let holders = Atomic<Int>(0), mostHolders = Atomic<Int>(0)
    let users = (0..<threads).map { _ in
        PThread.spawn {
            for _ in 0..<sectionsPerThread {
                semaphore.wait()
                let now = holders.wrappingAdd(1, ordering: .relaxed).newValue
                mostHolders.max(now, ordering: .relaxed)
                counter.value += 1
                holders.wrappingSubtract(1, ordering: .relaxed)
                semaphore.signal()
            }
        }
    }
    users.forEach { $0.join() }
    return SemaphoreAsLockOutcome(sections: counter.value, mostHolders: mostHolders.load(ordering: .relaxed))
}

import FIFODispatch
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_cascade.c: many cursors walk down a row of serial queues, each step a
    /// block on the next queue that moves its cursor one on, until a fixed number of steps has
    /// been taken in all; blocks still queued then do nothing, and a sync on every queue waits
    /// for them. libdispatch's test printed a histogram of where the cursors stopped and checked
    /// nothing else; here each cursor is checked to have moved one queue at a time, on the queue
    /// it was sent to, and the steps to add up. Scaled from 80 queues and 10,000 cursors to 40
    /// and 2,000 (20,000 steps).
    @Suite("dispatch_cascade.c: cursors cascading down serial queues")
    struct CascadeSuite {
        @Test(
            "cursors step down 40 serial queues one queue at a time until 20,000 steps are taken",
            arguments: Implementation.underTest)
        func cascade(_ implementation: Implementation) throws {
            try with(implementation) { api in
                let queueCount = 40, cursorCount = 2_000, steps = queueCount * cursorCount / 4
                let queues = (0..<queueCount).map { api.makeQueue("test.cascade.\($0)") }
                // touched by one block at a time: each step submits the next
                final class Cursor: @unchecked Sendable { var index = 0 }
                let cursors = (0..<cursorCount).map { _ in Cursor() }
                let left = Atomic<Int>(steps), taken = Atomic<Int>(0)
                let finished = Latch(), failures = Failures()
                @Sendable func step(_ cursor: Cursor, expected: Int) {
                    // The subtraction decides whether this step is taken, so none is taken after
                    // the last: with a separate stop flag set after it, steps on the other queues
                    // ran on while the thread that took the last was preempted before setting it
                    // (20,346 of 20,000 under ThreadSanitizer).
                    let remaining = left.subtract(1, ordering: .sequentiallyConsistent).newValue
                    guard remaining >= 0 else { return }
                    failures.check(cursor.index == expected, "a cursor at \(cursor.index) ran its step for \(expected)")
                    failures.check(
                        api.currentLabel() == "test.cascade.\(expected)",
                        "the step for queue \(expected) ran on \(api.currentLabel() ?? "no queue")")
                    let next = cursor.index + 1
                    if next < queueCount {
                        cursor.index = next
                        api.async(queues[next]) { step(cursor, expected: next) }
                    }
                    taken.add(1, ordering: .relaxed)
                    if remaining == 0 { finished.open() }
                }
                for cursor in cursors { api.async(queues[0]) { step(cursor, expected: 0) } }
                try #require(finished.wait(), "the cascade stopped before \(steps) steps")
                for queue in queues { api.sync(queue) {} }
                let total = taken.load(ordering: .relaxed)
                #expect(total == steps, "\(total) steps taken for \(steps) wanted")
                #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
            }
        }
    }
}

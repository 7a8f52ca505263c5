@testable import FIFODispatch
import Testing

@Suite("Deadline: when a wait gives up")
struct DeadlineTests {
    @Test("a timeout of zero or less is immediate, on either clock; a positive one, or never, is not")
    func immediate() {
        #expect(Deadline.after(.zero).isImmediate)
        #expect(Deadline.after(.nanoseconds(-5)).isImmediate)
        #expect(Deadline.wallClock(after: .zero).isImmediate)
        #expect(Deadline.after(.zero).hasPassed)
        #expect(!Deadline.after(.nanoseconds(1)).isImmediate)
        #expect(!Deadline.after(.seconds(60)).hasPassed)
        #expect(!Deadline.never.isImmediate && !Deadline.never.hasPassed)
        #expect(Deadline.after(.seconds(Int64.max)) == .never, "a huge timeout saturates to never")
    }
}

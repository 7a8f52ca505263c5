@testable import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

/// The layout that keeps fifo-dispatch's hot words in cache lines of their own (README, "Layout").
@Suite("FIFODispatch layout")
struct LayoutTests {
    @Test("a task node fits in one cache line; a list's words and each LineSlots slot start a line of their own")
    func hotWordsHaveLinesOfTheirOwn() throws {
        #expect(MemoryLayout<TaskNode>.size <= CacheLine.size)
        let list = TaskList()
        #expect(UInt(bitPattern: list.words) % UInt(CacheLine.size) == 0)
        let slots = LineSlots<Atomic<Int>>(count: 3) { Atomic($0) }
        defer { slots.deallocate() }
        for index in 0..<3 {
            #expect(UInt(bitPattern: slots[index]) % UInt(CacheLine.size) == 0)
            #expect(slots[index].pointee.load(ordering: .relaxed) == index)
        }
        #expect(UnsafeRawPointer(slots[1]) - UnsafeRawPointer(slots[0]) == CacheLine.size)
    }
}

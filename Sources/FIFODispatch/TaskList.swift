#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import Synchronization

/// A queue's pending nodes: a lock-free list that any number of threads push onto and one owner
/// (whoever holds the queue) takes from, in push order.
///
/// Push is one exchange on `tail`, then one store linking the node behind the previous tail (or
/// into `head` when the list was empty). The pusher learns whether the list was empty, and only
/// then must it wake the queue: a non-empty list is already someone's business. Between those two
/// steps the list is briefly "broken" (the tail is ahead of what `head` reaches); the owner sees
/// that as a missing link and waits the few instructions it takes to appear. The README beside
/// this file walks through each race.
@usableFromInline
final class TaskList: @unchecked Sendable {
    /// `tail`, `head`, `gate` and `pops`, alone in one cache line (`CacheLine`): a push and a pop
    /// each write the line, so what they touch together is in it and nothing else is.
    @usableFromInline let words: UnsafeMutablePointer<Atomic<UInt>>
    @inlinable var tail: UnsafeMutablePointer<Atomic<UInt>> { words }
    @inlinable var head: UnsafeMutablePointer<Atomic<UInt>> { words + 1 }
    /// The consumer side's word: a root list's owner flag (RootBands), in this line because every
    /// pop from a root takes it first. A queue's own list leaves it unused: whoever holds the
    /// queue's LOCKED bit pops.
    @inlinable var gate: UnsafeMutablePointer<Atomic<UInt>> { words + 2 }
    /// A root list's pops so far, counted by the owner under `gate` (RootBands): an idle worker
    /// that sees a lone node on two looks tells by it whether that node waited or was taken and
    /// replaced in between. A queue's own list leaves it unused.
    @inlinable var pops: UnsafeMutablePointer<Atomic<UInt>> { words + 3 }
    @usableFromInline static let wordCount = 4

    @usableFromInline init() {
        words = CacheLine.allocate(Atomic<UInt>.self, capacity: Self.wordCount)
        for index in 0..<Self.wordCount { (words + index).initialize(to: Atomic(0)) }
    }

    deinit {
        precondition(tail.pointee.load(ordering: .relaxed) == 0, "a queue was freed with blocks still in it")
        words.deinitialize(count: Self.wordCount)
        words.deallocate()
    }

    /// Appends `node`. Returns true when the list was empty before.
    @inlinable
    func push(_ node: NodeRef) -> Bool {
        node.pointee.next.store(0, ordering: .relaxed)
        // Sequentially consistent: its release half publishes the node's fields to the owner that
        // pops it, and it must stay ordered before the pusher's later read of the queue's state
        // word (or of the pool's idle count), which is what makes "pushed but nobody woke the
        // queue" impossible.
        let previous = tail.pointee.exchange(node.address, ordering: .sequentiallyConsistent)
        if previous == 0 {
            head.pointee.store(node.address, ordering: .releasing)
            return true
        }
        NodeRef(address: previous).pointee.next.store(node.address, ordering: .releasing)
        return false
    }

    /// True when nothing is in the list (or being pushed).
    @inlinable
    var isEmpty: Bool { tail.pointee.load(ordering: .sequentiallyConsistent) == 0 }

    /// True when the list holds at least two nodes. Any thread, a hint only: a push or pop may
    /// change it at once. `head` and `tail` share a cache line, so this costs no more than
    /// `isEmpty`.
    @inlinable
    var holdsSeveral: Bool {
        let last = tail.pointee.load(ordering: .relaxed)
        let first = head.pointee.load(ordering: .relaxed)
        return last != 0 && first != 0 && first != last
    }

    /// The oldest node, without taking it; nil when empty. Owner only.
    @inlinable
    func first() -> NodeRef? {
        var first = head.pointee.load(ordering: .acquiring)
        if first == 0 {
            if tail.pointee.load(ordering: .acquiring) == 0 { return nil }
            // A push into the empty list is between its exchange and its store of `head`.
            first = LinkWindow.awaitLink(unwritten: 0) { self.head.pointee.load(ordering: .acquiring) }
        }
        return NodeRef(address: first)
    }

    /// Takes the oldest node; nil when empty. Owner only.
    @inlinable
    func pop() -> NodeRef? {
        guard let node = first() else { return nil }
        var next = node.pointee.next.load(ordering: .acquiring)
        if next == 0 {
            // `node` looks last. Clear `head`, then try to clear `tail` too: if that succeeds the
            // list is empty and the next push starts it afresh (writing `head` itself).
            head.pointee.store(0, ordering: .relaxed)
            var expected = node.address
            if tail.pointee.compareExchange(
                expected: expected, desired: 0, successOrdering: .sequentiallyConsistent, failureOrdering: .acquiring
            ).exchanged {
                return node
            }
            expected = 0
            // A push got `node` as its previous tail and is about to link behind it.
            next = LinkWindow.awaitLink(unwritten: 0) { node.pointee.next.load(ordering: .acquiring) }
        }
        head.pointee.store(next, ordering: .relaxed)
        return node
    }
}

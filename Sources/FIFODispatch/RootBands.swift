#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import Synchronization

/// The pool's root lists, one per priority band, and for each the flag that makes one worker at a
/// time its owner (a root list is single-consumer like every `TaskList`): the list's `gate` word,
/// which shares a cache line with the list's ends and nothing else.
///
/// The lists are reached through raw pointers made once: a worker looks at every band on each
/// round of its search and a submitter pushes on every `async`, and reading them out of a Swift
/// array of queues costs a retain and a release each time, the queues' counts bouncing between
/// the CPUs (README.md, "Root lists"). The pool's `roots` keep the queues, and so these lists,
/// alive.
///
/// The owner flag is taken with a compare-and-exchange, never waited on in the kernel: popping
/// holds it for a few instructions, and a worker that finds it taken retries rather than sleeping
/// on a mutex (a pthread mutex here sent every collision of two workers through two futex system
/// calls).
struct RootBands: @unchecked Sendable {
    let count: Int
    /// Read by every push and every look, written never: a line of its own per band keeps other
    /// threads' writes out of it (`CacheLine`).
    private let lists: LineSlots<Unmanaged<TaskList>>

    /// The lists of `roots`, band by band (index = `Priority.rawValue`).
    init(_ roots: [FIFOQueue]) {
        count = roots.count
        lists = LineSlots(count: count) { .passUnretained(roots[$0].list) }
    }

    /// Frees the slots; the lists themselves belong to their queues.
    func deallocate() {
        lists.deallocate()
    }

    @inline(__always)
    private func withList<T>(_ band: Int, _ body: (TaskList) -> T) -> T {
        lists[band].pointee._withUnsafeGuaranteedRef(body)
    }

    func isEmpty(_ band: Int) -> Bool { withList(band) { $0.isEmpty } }

    /// True when any band holds a node (or one is being pushed).
    var hasWork: Bool {
        for band in 0..<count where !isEmpty(band) { return true }
        return false
    }

    /// True when some band holds more than one node: more work than the worker that pushed it
    /// will take next (a hint, as `TaskList.holdsSeveral`).
    var hasSeveral: Bool {
        for band in 0..<count where withList(band, { $0.holdsSeveral }) { return true }
        return false
    }

    /// What one look at every band finds: how much work waits, and how many nodes the bands have
    /// given out so far. Read from the lines a look reads anyway (`TaskList.pops`).
    struct Sighting {
        enum Work { case none, one, several }
        let work: Work
        let pops: UInt
    }

    var sighting: Sighting {
        var work = Sighting.Work.none
        var pops: UInt = 0
        for band in 0..<count {
            withList(band) { list in
                pops &+= list.pops.pointee.load(ordering: .relaxed)
                if !list.isEmpty { work = work == .none && !list.holdsSeveral ? .one : .several }
            }
        }
        return Sighting(work: work, pops: pops)
    }

    /// Appends `node` to `band`'s list. Returns true when the list was empty before.
    func push(_ node: NodeRef, band: Int) -> Bool {
        withList(band) { $0.push(node) }
    }

    enum Take {
        case node(NodeRef)
        /// Every band was empty.
        case empty
        /// The highest non-empty band had an owner: look again in a moment. A lower band is not
        /// taken instead, or a busy high band would let low-priority blocks overtake it.
        case contended
    }

    /// The oldest node of the highest non-empty band.
    func takeNext() -> Take {
        for band in stride(from: count - 1, through: 0, by: -1) where !isEmpty(band) {
            // The band's owner flag: its list's `gate`, 1 while a worker pops.
            let take = withList(band) { list -> Take in
                let owner = list.gate
                // Look before the compare-and-exchange, which would take the line from the owner.
                if owner.pointee.load(ordering: .relaxed) != 0 { return .contended }
                // acquiring/releasing: the previous owner's pops (its writes of `head`) happen
                // before this owner's.
                guard
                    owner.pointee.compareExchange(
                        expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
                    ).exchanged
                else { return .contended }
                let node = list.pop()
                if node != nil {
                    list.pops.pointee.store(list.pops.pointee.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
                }
                owner.pointee.store(0, ordering: .releasing)
                return node.map(Take.node) ?? .empty
            }
            if case .empty = take { continue }  // emptied since the look: try the next band
            return take
        }
        return .empty
    }
}

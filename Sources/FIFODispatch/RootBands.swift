#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The pool's root lists, one per priority band, and for each the flag that makes one worker at a
/// time its owner (a root list is single-consumer like every `TaskList`).
///
/// Both are reached through raw pointers made once: a worker looks at every band on each round of
/// its search and a submitter pushes on every `async`, and reading them out of a Swift array of
/// queues cost a retain and a release each time (a quarter of a chained link's profile, the
/// queues' counts bouncing between the CPUs). The pool's `roots` keep the queues, and so these
/// lists, alive.
///
/// The owner flag is taken with a compare-and-exchange, never waited on in the kernel: popping
/// holds it for a few instructions, and a worker that finds it taken retries rather than sleeping
/// on a mutex (a pthread mutex here sent every collision of two workers through two futex system
/// calls).
struct RootBands: @unchecked Sendable {
    let count: Int
    private let lists: UnsafeMutablePointer<Unmanaged<TaskList>>
    private let owners: UnsafeMutablePointer<Atomic<Bool>>

    /// The lists of `roots`, band by band (index = `Priority.rawValue`).
    init(_ roots: [FIFOQueue]) {
        count = roots.count
        lists = .allocate(capacity: count)
        owners = .allocate(capacity: count)
        for (band, root) in roots.enumerated() {
            (lists + band).initialize(to: .passUnretained(root.list))
            (owners + band).initialize(to: Atomic(false))
        }
    }

    /// Frees the pointers; the lists themselves belong to their queues.
    func deallocate() {
        lists.deinitialize(count: count)
        lists.deallocate()
        owners.deinitialize(count: count)
        owners.deallocate()
    }

    @inline(__always)
    private func withList<T>(_ band: Int, _ body: (TaskList) -> T) -> T {
        lists[band]._withUnsafeGuaranteedRef(body)
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

    /// Appends `node` to `band`'s list.
    func push(_ node: NodeRef, band: Int) {
        _ = withList(band) { $0.push(node) }
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
            let owner = owners + band
            // Look before the compare-and-exchange, which would take the line from the owner.
            if owner.pointee.load(ordering: .relaxed) { return .contended }
            // acquiring/releasing: the previous owner's pops (its writes of `head`) happen before
            // this owner's.
            guard owner.pointee.compareExchange(
                expected: false, desired: true, successOrdering: .acquiring, failureOrdering: .relaxed
            ).exchanged else { return .contended }
            let node = withList(band) { $0.pop() }
            owner.pointee.store(false, ordering: .releasing)
            if let node { return .node(node) }
        }
        return .empty
    }
}

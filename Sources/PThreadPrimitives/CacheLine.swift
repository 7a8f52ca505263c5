/// The unit in which CPUs move memory between their caches: 64 bytes on x86-64 and on the arm64
/// cores this suite meets.
///
/// Words that one thread writes while another reads them are laid out in whole lines, so that
/// where the allocator happens to put them decides nothing. Two unrelated hot words in one line
/// make each thread's write evict the other's copy (false sharing), and whether they land in one
/// line depends on the sizes of every allocation before them, so a build that only moves the
/// program's data can move a figure (Sources/FIFODispatch/README.md, "Layout").
public enum CacheLine {
    @inlinable public static var size: Int { 64 }

    /// Uninitialized memory for `capacity` values of `T` that starts a line and fills whole lines,
    /// so nothing else shares them. Through glibc's `memalign`, which takes the arena's lock: for
    /// blocks made once (a list's ends, a worker's counter), not per operation (`LineSlots`).
    /// Free it with `deallocate()`.
    @inlinable
    public static func allocate<T: ~Copyable>(_: T.Type, capacity: Int = 1) -> UnsafeMutablePointer<T> {
        let lines = (capacity * MemoryLayout<T>.stride + size - 1) / size
        return UnsafeMutableRawPointer.allocate(byteCount: max(lines, 1) * size, alignment: size)
            .bindMemory(to: T.self, capacity: capacity)
    }
}

/// `count` values of `T`, each alone in its own cache line: line-aligned, `CacheLine.size` bytes
/// apart. The owner frees them with `deallocate()`.
@frozen
public struct LineSlots<T: ~Copyable>: @unchecked Sendable {
    public let count: Int
    @usableFromInline let lines: UnsafeMutableRawPointer
    /// The block `lines` lies in: one line more than the slots, at malloc's own alignment, so
    /// `lines` can start at the first line boundary in it. Asking for a line's alignment instead
    /// goes through glibc's `memalign`, which takes the arena's lock on every call: slots made per
    /// `apply` (`PieceShares`) made the loop's caller meet its helpers there.
    @usableFromInline let block: UnsafeMutableRawPointer

    /// Slots initialized with `initial(index)`.
    @inlinable
    public init(count: Int, _ initial: (Int) -> T) {
        precondition(MemoryLayout<T>.size <= CacheLine.size, "\(T.self) does not fit in a cache line")
        self.count = count
        block = .allocate(byteCount: (max(count, 1) + 1) * CacheLine.size, alignment: MemoryLayout<Int>.alignment)
        let past = Int(bitPattern: block) & (CacheLine.size - 1)
        lines = block + (past == 0 ? 0 : CacheLine.size - past)
        for index in 0..<count {
            (lines + index * CacheLine.size).bindMemory(to: T.self, capacity: 1).initialize(to: initial(index))
        }
    }

    /// The slot of `index`.
    @inlinable
    public subscript(index: Int) -> UnsafeMutablePointer<T> {
        (lines + index * CacheLine.size).assumingMemoryBound(to: T.self)
    }

    /// Deinitializes and frees every slot.
    public func deallocate() {
        for index in 0..<count { self[index].deinitialize(count: 1) }
        block.deallocate()
    }
}

import CFIFODispatch

/// What a thread holds while it runs a queue's blocks: a queue's lock (a serial queue, or a
/// concurrent queue's drain or barrier) or one width unit of a concurrent queue. Frames live on
/// the stack of the thread that holds them and link outwards (`parent`); the thread's innermost
/// frame is in a C thread-local, so `sync` can tell a deadlock and a block can ask for its
/// queue's label.
@usableFromInline
struct DrainFrame {
    @usableFromInline let queue: Unmanaged<FIFOQueue>
    @usableFromInline let hold: Hold
    @usableFromInline let parent: UnsafeMutablePointer<DrainFrame>?

    @inlinable
    init(queue: Unmanaged<FIFOQueue>, hold: Hold, parent: UnsafeMutablePointer<DrainFrame>?) {
        self.queue = queue
        self.hold = hold
        self.parent = parent
    }

    @usableFromInline
    enum Hold: UInt8 { case lock, member }

    /// The calling thread's innermost frame.
    @inlinable
    static var current: UnsafeMutablePointer<DrainFrame>? {
        rb_fifo_frame().map { $0.assumingMemoryBound(to: DrainFrame.self) }
    }

    @inlinable
    static func setCurrent(_ frame: UnsafeMutablePointer<DrainFrame>?) {
        rb_fifo_set_frame(frame.map { UnsafeMutableRawPointer($0) })
    }
}

/// How a drain ended: it ran out of blocks (and released what it held), or it handed what it held
/// to a thread waiting in `sync`, which releases it when its block is done.
@usableFromInline
enum DrainOutcome { case finished, handedOff }

#if canImport(Glibc)
import Glibc
#endif

/// What a `sync` on an event-loop queue needs, since the loop is the queue: the loop itself held
/// while the caller runs its block on its own thread. The caller queues `hold()` on the loop
/// (FIFO: behind every block submitted before it), waits until the loop reaches it, runs its
/// block, then lets the loop go on. The loop thread blocks meanwhile, which NIO otherwise
/// forbids: here it is what "the queue held" means (README.md, "sync").
///
/// Two POSIX semaphores in the object's own storage, so a `sync` allocates this one object (the
/// closure that carries it to the loop captures only it, so it needs no context of its own);
/// ThreadSanitizer sees `sem_post` and `sem_wait` as the hand-offs they are.
@usableFromInline
final class LoopHold: ManagedBuffer<Void, sem_t> {
    private static let granted = 0, released = 1

    /// A new hold, its two semaphores at zero.
    static func make() -> LoopHold {
        let hold = unsafeDowncast(create(minimumCapacity: 2) { _ in }, to: LoopHold.self)
        hold.withUnsafeMutablePointerToElements { semaphores in
            for index in 0..<2 {
                let rc = sem_init(semaphores + index, 0, 0)
                precondition(rc == 0, "sem_init failed: errno \(errno)")
            }
        }
        return hold
    }

    deinit {
        withUnsafeMutablePointerToElements { semaphores in
            for index in 0..<2 { sem_destroy(semaphores + index) }
        }
    }

    /// On the loop: tells the caller the loop is its, and waits until the caller lets it go.
    func grantAndWaitForRelease() {
        post(Self.granted)
        wait(Self.released)
    }

    /// On the caller: waits until the loop has run every block queued ahead of the hold.
    func waitUntilGranted() { wait(Self.granted) }

    /// On the caller, after its block: the loop runs its next block.
    @usableFromInline
    func release() { post(Self.released) }

    private func post(_ index: Int) {
        withUnsafeMutablePointerToElements { semaphores in
            let rc = sem_post(semaphores + index)
            precondition(rc == 0, "sem_post failed: errno \(errno)")
        }
    }

    private func wait(_ index: Int) {
        withUnsafeMutablePointerToElements { semaphores in
            while sem_wait(semaphores + index) != 0 {
                precondition(errno == EINTR, "sem_wait failed: errno \(errno)")  // a signal handler ran
            }
        }
    }
}

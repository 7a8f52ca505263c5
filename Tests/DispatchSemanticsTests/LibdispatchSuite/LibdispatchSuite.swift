#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import Testing

/// swift-corelibs-libdispatch's own tests (its tests/ directory), re-expressed over `DispatchAPI`
/// so that each runs on FIFODispatch and on libdispatch, the oracle. README.md in this folder
/// says, for every file there, where it went and what was left out.
///
/// One file per libdispatch test, each a suite nested here. Serialized: several of these occupy
/// every worker, spin on every CPU or wait for a pool to add a thread, and on a 2-core machine two
/// of them at once would measure each other instead of the pool. The suites about blocking and
/// thread growth are named `LibdispatchBlocking…`, so that one filter selects them
/// (`tools/repeat-tests.sh 20 LibdispatchBlocking`).
@Suite("libdispatch's tests, ported", .serialized)
enum LibdispatchSuite {}

extension LibdispatchSuite {
    /// Time since `start`.
    static func elapsed(since start: MonotonicInstant) -> Duration {
        .nanoseconds(MonotonicInstant.now.nanoseconds - start.nanoseconds)
    }

    /// What is left of `duration` counted from `start` (zero once it has passed).
    static func remaining(of duration: Duration, from start: MonotonicInstant) -> Duration {
        max(.zero, duration - elapsed(since: start))
    }

    /// Sleeps in the kernel, as libdispatch's tests do with sleep(): a wait no pool can see,
    /// unlike a wait on one of the pool's own semaphores or groups.
    static func sleepUnseen(_ duration: Duration) {
        usleep(UInt32((duration / .microseconds(1)).rounded()))
    }
}

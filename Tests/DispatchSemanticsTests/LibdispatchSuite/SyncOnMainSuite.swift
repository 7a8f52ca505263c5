#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_sync_on_main.c (rdar://7181849): while the main thread serves the main
    /// queue, a block on another queue calls sync onto the main queue ten times, 50 ms apart,
    /// and every sync's block must run on the main thread; the main thread meanwhile has other
    /// main-queue work, a block every 100 ms. libdispatch's test served the main queue with
    /// CFRunLoopRun and made the 100 ms work with a timer; here `dispatchMain` serves it and the
    /// work is a block resubmitted from a worker after a sleep. `dispatchMain` needs the main
    /// thread and never returns, so the scenario runs in the DispatchMainProbe child process, as
    /// MainQueueTests' does.
    @Suite("dispatch_sync_on_main.c: sync onto the main queue runs on the main thread")
    struct SyncOnMainSuite {
        @Test(
            "sync onto the main queue from another queue runs each block on the main thread",
            arguments: Implementation.underTest)
        func syncOnMain(_ implementation: Implementation) throws {
            var pid: pid_t = 0
            let arguments = [MainQueueTests.probe, implementation.rawValue, "sync-on-main"]
            var argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            try #require(
                posix_spawn(&pid, MainQueueTests.probe, nil, nil, &argv, environ) == 0,
                "could not start \(MainQueueTests.probe)")
            var status: Int32 = 0
            let deadline = MonotonicInstant.after(patience)
            while waitpid(pid, &status, WNOHANG) == 0 {
                if MonotonicInstant.now >= deadline { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0); break }
                usleep(1_000)
            }
            let exited = status & 0x7f == 0, code = (status >> 8) & 0xff
            #expect(
                exited && code == 42,
                """
                probe ended with raw status \(status) (exit 42: every sync ran on the main thread; \
                1: one did not, or fewer than ten ran; 3: dispatchMain returned)
                """)
        }
    }
}

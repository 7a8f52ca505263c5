#if canImport(Glibc)
import Glibc
#endif
import Harness
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

    /// Set in the child process that `alone` starts: there, only the libdispatch case runs.
    static let aloneVariable = "RUNTIMEBENCH_ORACLE_ALONE"

    /// Runs a blocking check on `implementation`, on libdispatch in a process of its own.
    ///
    /// libdispatch's pool is the process's, and the test suites beside this one are not
    /// serialized with it: when their blocks keep as many of its workers runnable as there are
    /// CPUs, libdispatch rightly adds no thread for a sleeper, and the oracle fails for its
    /// neighbours' sake (CI saw a block wait 3 s behind two sleepers while other suites ran).
    /// libdispatch's own harness runs each test as a child process, and so does this: the test
    /// binary runs again, filtered to `test` (a Swift Testing filter, "Suite/function"), with
    /// nothing beside it. FIFODispatch's pool is the test's own, so its case runs here.
    static func alone(
        _ implementation: Implementation, test: String, _ body: (any DispatchAPI) -> Void
    ) async throws {
        let inChild = getenv(aloneVariable) != nil
        switch (implementation, inChild) {
        case (.fifoDispatch, false), (.libdispatch, true): with(implementation, body)
        case (.fifoDispatch, true): return  // the parent ran it
        case (.libdispatch, false):
            let outcome = try await ChildProcess.run(
                executable: ChildProcess.ownExecutable(),
                arguments: ["--testing-library", "swift-testing", "--filter", test],
                environment: [aloneVariable: "1"], deadline: patience * 2)
            let printed = outcome.standardOutput + outcome.standardError  // Swift Testing writes to stderr
            // The failures and their messages, without the suites' doc comments and the banner.
            let report = printed.split(separator: "\n").filter { line in
                line.contains("✘")
                    || (line.contains("↳") && !line.contains("///") && !line.contains("Testing Library")
                        && !line.contains("Target Platform"))
            }.joined(separator: "\n")
            #expect(
                outcome.ending == .exited(0),
                "libdispatch, alone in a child process (\(test)): \(outcome.ending)\n\(report)")
            // A filter that matched nothing would pass with no test run at all.
            #expect(printed.contains("Test run with 1 test"), "the filter \(test) ran no test alone")
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import Testing

/// Real child processes (/bin/sh) that behave and misbehave: the verdicts the runner records.
@Suite("child processes: records, crashes, hangs, garbage")
struct ChildProcessTests {
    private func verdict(_ script: String, deadline: Duration = .seconds(60), environment: [String: String] = [:])
        async throws -> ChildVerdict
    {
        ChildVerdict(
            try await ChildProcess.run(
                executable: "/bin/sh", arguments: ["-c", script],
                environment: environment, deadline: deadline))
    }

    @Test("a well-behaved child: its last non-empty output line is the record")
    func record() async throws {
        #expect(try await verdict("echo progress; echo '{\"ok\":1}'; echo") == .record("{\"ok\":1}"))
    }

    @Test("the environment overrides reach the child")
    func environment() async throws {
        #expect(
            try await verdict("echo \"$RUNTIMEBENCH_PROBE\"", environment: ["RUNTIMEBENCH_PROBE": "seen"])
                == .record("seen"))
    }

    @Test("children run Swift's backtracer without symbolication, unless told otherwise")
    func backtracer() async throws {
        // The test process itself runs without SWIFT_BACKTRACE (CI and `swift test` do not set it).
        guard getenv("SWIFT_BACKTRACE") == nil else { return }
        #expect(try await verdict("echo \"$SWIFT_BACKTRACE\"") == .record("enable=yes,symbolicate=off"))
        #expect(
            try await verdict("echo \"$SWIFT_BACKTRACE\"", environment: ["SWIFT_BACKTRACE": "enable=no"])
                == .record("enable=no"))
    }

    @Test("a crash names the signal and quotes standard error")
    func crash() async throws {
        let result = try await verdict("echo 'Fatal error: boom' >&2; kill -SEGV $$")
        guard case .failed(let reason) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(reason.contains("SIGSEGV"), "\(reason)")
        #expect(reason.contains("Fatal error: boom"), "\(reason)")
    }

    @Test(
        "a crash a sanitizer caught (its report, or its failed check after a Swift trap) is a crash, not an exit status"
    )
    func sanitizerCrash() async throws {
        // The two endings ThreadSanitizer gave the fault test's children in CI, both with exit 66.
        let report = try await verdict(
            """
            echo '==4242==ERROR: ThreadSanitizer: SEGV on unknown address 0x000000000010 (pc 0x1 bp 0x2 T4242)' >&2; \
            exit 66
            """)
        #expect(
            report
                == .failed(
                    reason: "crashed: ThreadSanitizer: SEGV on unknown address 0x000000000010 (exit status 66); "
                        + "stderr: ==4242==ERROR: ThreadSanitizer: SEGV on unknown address 0x000000000010 "
                        + "(pc 0x1 bp 0x2 T4242)"),
            "\(report)")
        let check = try await verdict(
            """
            echo 'Workloads/FaultInjection.swift:57: Fatal error: injected trap (fault workload)' >&2
            printf '*** Signal 4: Backtracing from 0x7fb0472f9361...ThreadSanitizer: CHECK failed: \
            tsan_rtl.cpp:261 "((!thr->slot)) != (0)" (0x0, 0x0) (tid=2186)' >&2
            exit 66
            """)
        guard case .failed(let reason) = check else { Issue.record("expected a failure, got \(check)"); return }
        #expect(
            reason.hasPrefix(
                "crashed: ThreadSanitizer: CHECK failed: tsan_rtl.cpp:261 \"((!thr->slot)) != (0)\" (exit status 66)"),
            "\(reason)")
        #expect(reason.contains("Fatal error: injected trap"), "\(reason)")
    }

    @Test("a non-zero exit is a failure with its status")
    func exitStatus() async throws {
        #expect(try await verdict("echo nope >&2; exit 3") == .failed(reason: "exited with status 3; stderr: nope"))
    }

    @Test("a hang past the deadline is killed and reported")
    func hang() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await verdict("exec sleep 600", deadline: .milliseconds(300))
        guard case .failed(let reason) = result else { Issue.record("expected a failure, got \(result)"); return }
        #expect(reason.hasPrefix("hung"), "\(reason)")
        // Not a timing verdict on the runtime, a check that the kill happened at all: without it
        // the call would have waited the full 600 s.
        #expect(clock.now - start < .seconds(300))
    }

    @Test("no output at all is a failure, not an empty record")
    func silent() async throws {
        #expect(try await verdict("true") == .failed(reason: "printed no record (empty standard output)"))
    }
}

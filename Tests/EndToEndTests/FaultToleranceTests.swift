#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import Reports
import Testing

/// A run survives its cases: each misbehaving case (the `fault` workload, offered only with
/// RUNTIMEBENCH_FAULT_INJECTION=1) is recorded as failed with its reason, and the others still
/// run and are reported.
@Suite("fault tolerance end to end")
struct FaultToleranceTests {
    @Test(
        """
        a trap, a segfault, a hang, garbage and an early exit each fail their case with the reason; the other cases run
        """)
    func faultsAreRecorded() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/faults"
        let outcome = try await ChildProcess.run(
            executable: BenchCLITests.bench,
            arguments: [
                "run", "--workload", "fault", "--workload", "spin", "--filter", "fault|rounds=0/", "--allocator",
                "system",
                "--repetitions", "1", "--samples", "3", "--sample-ms", "2", "--deadline", "10", "--out", out,
            ],
            // The children run with the backtracer's symbolication off (`ChildProcess`): with it on,
            // a busy machine once spent more than the 3 s deadline symbolicating the trap, which was
            // then recorded as a hang. The test's own environment must not decide that. Even so, the
            // trap's child outlived a 3 s deadline once beside a parallel swift test; 10 s.
            environment: ["RUNTIMEBENCH_FAULT_INJECTION": "1"], deadline: .seconds(120))
        #expect(outcome.ending == .exited(1), "a run with failed cases exits 1: \(outcome.standardError)")
        #expect(outcome.standardOutput.contains("bench: 5 case(s) had failures"), "\(outcome.standardOutput)")
        let run = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json")))
        func failure(_ kind: String) -> String {
            run.cases.first { $0.benchmarkCase.parameter("kind") == kind }?.failures.first ?? "no failure recorded"
        }
        // A plain build dies of the signal (SIGILL for the trap, SIGSEGV); under ThreadSanitizer
        // (the CI runs this suite both ways) the sanitizer's own handlers end the process: the trap
        // as a SIGSEGV after a failed check, the segfault as exit 66 with its report.
        #expect(failure("trap").hasPrefix("crashed: "), "\(failure("trap"))")
        #expect(
            failure("trap").contains("Fatal error: injected trap"), "the trap's message is quoted: \(failure("trap"))")
        #expect(
            failure("segfault").hasPrefix("crashed: killed by SIGSEGV (11)")
                || failure("segfault").hasPrefix("crashed: ThreadSanitizer: SEGV on unknown address"),
            "\(failure("segfault"))")
        #expect(failure("hang") == "hung: still running after the 10.0 seconds deadline; killed", "\(failure("hang"))")
        #expect(
            failure("garbage").hasPrefix("unreadable output")
                && failure("garbage").contains("last line: this is not a record {"),
            "\(failure("garbage"))")
        #expect(
            failure("early-exit") == "exited with status 3; stderr: injected early exit (fault workload)",
            "\(failure("early-exit"))")
        let spin = try #require(run.cases.first { $0.benchmarkCase.workload == "spin" })
        #expect(spin.records.count == 1 && spin.failures.isEmpty, "the healthy case ran: \(spin.status)")
        let report = try #require(BenchCLITests.read(out + "/report.md"))
        #expect(
            report.contains("## Failed and not applicable")
                && report.contains("`fault/none/kind=hang/system` | failed: hung"),
            "the report lists the failures")
        let journal = try #require(BenchCLITests.read(out + "/journal.jsonl"))
        #expect(journal.split(separator: "\n").count == 7, "the header, then every repetition journaled, failed or not")
    }

    @Test(
        """
        an output that cannot be written at the end: exit 2, a message naming what failed, \
        and the journal of finished repetitions kept
        """)
    func unwritableResultsKeepTheJournal() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/run"
        // results.json already a directory: the final rename fails even for root, as a full or
        // read-only disk would make it fail.
        #expect(mkdir(out, 0o755) == 0 && mkdir(out + "/results.json", 0o755) == 0)
        let outcome = try await ChildProcess.run(
            executable: BenchCLITests.bench,
            arguments: [
                "run", "--workload", "spin", "--filter", "rounds=0/system", "--repetitions", "2", "--samples", "3",
                "--sample-ms", "2", "--out", out,
                "--overwrite",
            ],
            deadline: .seconds(120))
        #expect(outcome.ending == .exited(2), "\(outcome.ending)")
        #expect(
            outcome.standardError.contains(
                "bench: cannot write the results: cannot rename into place \(out)/results.json: Is a directory. "
                    + "The 2 finished repetitions are kept in \(out)/journal.jsonl"),
            "\(outcome.standardError)")
        let journal = try #require(BenchCLITests.read(out + "/journal.jsonl"))
        #expect(
            journal.split(separator: "\n").count == 3 && journal.contains("\"outcome\":\"ok\""),
            "the header and 2 repetitions")
    }

    /// Whether this process may mount a small tmpfs (root with CAP_SYS_ADMIN, as in CI): the only
    /// way to make a disk full or read-only in the middle of a run.
    static let canMountTmpfs: Bool = {
        let directory = BenchCLITests.temporaryDirectory()
        guard mount("tmpfs", directory, "tmpfs", 0, "size=16k") == 0 else { return false }
        return umount(directory) == 0
    }()

    @Test(
        """
        a disk that fills up mid-run: exit 2 naming the journal, which keeps every finished repetition as whole lines; \
        a directory turned read-only mid-run: exit 2, every repetition in the journal
        """,
        .enabled(if: canMountTmpfs, "needs to mount a tmpfs (root with CAP_SYS_ADMIN)"))
    func outputFailsMidRun() async throws {
        for way in ["full", "read-only"] {
            let mountPoint = BenchCLITests.temporaryDirectory()
            // 32 KB holds the journal's header (about 11 KB) and about a dozen of these records.
            #expect(mount("tmpfs", mountPoint, "tmpfs", 0, "size=\(way == "full" ? 32 : 4096)k") == 0)
            defer { umount2(mountPoint, Int32(MNT_DETACH)) }
            let out = mountPoint + "/run"
            let repetitions = way == "full" ? 200 : 30
            // A file system cannot be remounted read-only while the journal is open for writing, so
            // the directory is: a read-only bind mount over it, after two repetitions. The journal's
            // open descriptor still writes below it, as it would on a disk whose directory lost
            // its write permission; every new file (results.json) fails.
            let script = """
                "\(BenchCLITests.bench)" run --workload spin --filter 'rounds=0/system' --repetitions \(repetitions) \
                --samples 3 --sample-ms 2 \
                    --out "\(out)" > "\(mountPoint).stdout" 2> "\(mountPoint).stderr" &
                pid=$!
                if [ \(way) = read-only ]; then
                    while [ "$(cat "\(out)/journal.jsonl" 2> /dev/null | wc -l)" -lt 3 ]; do sleep 0.02; done
                    mount --bind "\(out)" "\(out)" && mount -o remount,bind,ro "\(out)" \
                || echo "could not make it read-only"
                fi
                wait $pid
                echo "status $?"
                [ \(way) = read-only ] && umount "\(out)"
                true
                """
            let outcome = try await ChildProcess.run(
                executable: "/bin/sh", arguments: ["-c", script], deadline: .seconds(200))
            let stderr = BenchCLITests.read(mountPoint + ".stderr") ?? ""
            #expect(outcome.standardOutput.contains("status 2"), "\(way): \(outcome.standardOutput) \(stderr)")
            if way == "full" {
                #expect(
                    stderr.contains(
                        "bench: cannot append \(out)/journal.jsonl: No space left on device; the run stopped. "
                            + "The repetitions that finished before are in \(out)/journal.jsonl"),
                    "\(way): \(stderr)")
            } else {
                #expect(
                    stderr.contains(
                        "bench: cannot write the results: cannot write into \(out): Read-only file system. "
                            + "The \(repetitions) finished repetitions are kept in \(out)/journal.jsonl"),
                    "\(way): \(stderr)")
            }
            // Every line whole: a write the full disk cut short is cut off again.
            let journal = try #require(BenchCLITests.read(out + "/journal.jsonl"))
            let lines = journal.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "", "\(way): the journal ends with a complete line")
            #expect(lines.first?.hasPrefix("{\"header\":") == true, "\(way): the journal starts with its header")
            let entries = lines.dropLast().dropFirst()
            if way == "full" {
                #expect(entries.count >= 2 && entries.count < repetitions, "\(way): \(entries.count) lines")
            } else {
                #expect(entries.count == repetitions, "\(way): \(entries.count) lines")
            }
            for entry in entries {
                #expect(entry.hasPrefix("{"), "\(way): \(entry.prefix(80))")
                #expect(entry.hasSuffix("}"), "\(way): a line cut short: …\(entry.suffix(80))")
                #expect(entry.contains("\"outcome\":\"ok\""), "\(way): \(entry.prefix(200))")
            }
        }
    }

    @Test("without RUNTIMEBENCH_FAULT_INJECTION=1 the fault workload does not exist")
    func faultsAreHiddenFromUsers() async throws {
        let outcome = try await ChildProcess.run(
            executable: BenchCLITests.bench, arguments: ["run", "--workload", "fault"],
            environment: ["RUNTIMEBENCH_FAULT_INJECTION": "0"], deadline: .seconds(60))
        #expect(outcome.ending == .exited(64))
        #expect(outcome.standardError.contains("unknown workload 'fault'"), "\(outcome.standardError)")
    }
}

/// Ctrl-C, SIGTERM or SIGHUP (a dropped SSH session) in the middle of a run: the child is stopped,
/// what finished is kept and reported as an interrupted run, and the exit status is 128 + the
/// signal.
@Suite("interrupted runs end to end")
struct InterruptionTests {
    @Test(
        """
        SIGINT, SIGTERM and SIGHUP mid-run: exit 130 / 143 / 129, the finished cases kept in the journal, \
        results and report, marked interrupted, no child left
        """)
    func interruptedRunKeepsWhatFinished() async throws {
        for (signal, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
            let out = BenchCLITests.temporaryDirectory() + "/run"
            // The hang case's child is the one running when the signal comes: it must be stopped too.
            // Pinned to CPU 0 so that its command line (the request) tells it from the fault test's
            // own hang child, which may be running at the same time.
            let script = """
                RUNTIMEBENCH_FAULT_INJECTION=1 "\(BenchCLITests.bench)" run --workload spin --workload fault \
                    --filter 'rounds=0/system|kind=hang/system' --repetitions 20 --samples 3 --sample-ms 2 \
                --deadline 60 --cpus 0 \
                    --out "\(out)" > "\(out).stdout" 2> "\(out).stderr" &
                pid=$!
                while [ "$(cat "\(out)/journal.jsonl" 2> /dev/null | wc -l)" -lt 2 ]; do sleep 0.05; done
                sleep 0.5
                kill -\(signal) $pid
                wait $pid
                echo "status $?"
                sleep 0.2
                pgrep -af "bench [c]ase" | grep hang | grep -qF '"cpus":[0]' && echo "child left" \
                || echo "no child left"
                """
            let outcome = try await ChildProcess.run(
                executable: "/bin/sh", arguments: ["-c", script], deadline: .seconds(120))
            #expect(
                outcome.standardOutput.contains("status \(status)"),
                "SIG\(signal): \(outcome.standardOutput) \(BenchCLITests.read(out + ".stderr") ?? "")")
            #expect(outcome.standardOutput.contains("no child left"), "SIG\(signal): \(outcome.standardOutput)")
            let run = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json")))
            #expect(
                run.interrupted?.hasPrefix("SIG\(signal) after 1 of 40 repetitions") == true,
                "\(run.interrupted ?? "not marked")")
            #expect(run.cases.map(\.benchmarkCase.id) == ["spin/none/rounds=0/system"], "only what finished")
            #expect(run.cases.first?.records.count == 1)
            let report = try #require(BenchCLITests.read(out + "/report.md"))
            #expect(report.contains("**This run was interrupted** (SIG\(signal) after 1 of 40 repetitions)"))
            #expect(
                BenchCLITests.read(out + "/journal.jsonl")?.split(separator: "\n").count == 2,
                "the header and the one finished repetition")
            #expect(
                BenchCLITests.read(out + ".stderr")?.contains("interrupted (SIG\(signal) after 1 of 40 repetitions)")
                    == true)
        }
    }

    @Test(
        """
        Ctrl-C at a terminal (SIGINT to the whole process group): the child that dies of it is interrupted, \
        not crashed, and the count agrees with the progress lines
        """)
    func ctrlCReachesTheChildToo() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/run"
        // `set -m` gives the run its own process group, as a terminal does a foreground job, and
        // `kill -INT -PID` signals the whole group, as Ctrl-C does: the hang case's child gets the
        // SIGINT too and dies of it. The not-applicable case counts as a finished repetition, as
        // it does in the progress lines. Pinned to CPU 1 for the same reason as below.
        let script = """
            set -m
            RUNTIMEBENCH_FAULT_INJECTION=1 "\(BenchCLITests.bench)" run --workload spin --workload fork-join \
            --workload fault \
                --filter \
            'rounds=0/system|fork-join/pthread-mutex/fib=25,form=task,split=eager/system|kind=hang/system' \
                --repetitions 20 --samples 3 --sample-ms 2 --deadline 60 --cpus 1 \
                --out "\(out)" > "\(out).stdout" 2> "\(out).stderr" &
            pid=$!
            while [ "$(cat "\(out)/journal.jsonl" 2> /dev/null | wc -l)" -lt 3 ]; do sleep 0.05; done
            sleep 0.5
            kill -INT -$pid
            wait $pid
            echo "status $?"
            """
        let outcome = try await ChildProcess.run(
            executable: "/bin/bash", arguments: ["-c", script], deadline: .seconds(120))
        let stderr = BenchCLITests.read(out + ".stderr") ?? ""
        #expect(outcome.standardOutput.contains("status 130"), "\(outcome.standardOutput) \(stderr)")
        #expect(!stderr.contains("crashed"), "\(stderr)")
        #expect(stderr.contains("[2/60] fork-join/pthread-mutex/"), "\(stderr)")
        #expect(stderr.contains("interrupted (SIGINT after 2 of 60 repetitions)"), "\(stderr)")
        let run = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json")))
        #expect(run.cases.allSatisfy { $0.failures.isEmpty }, "\(run.cases.flatMap(\.failures))")
        #expect(
            !run.cases.map(\.benchmarkCase.id).contains { $0.contains("kind=hang") },
            "the interrupted case is not reported")
        let journal = BenchCLITests.read(out + "/journal.jsonl") ?? ""
        #expect(journal.split(separator: "\n").count == 3 && !journal.contains("crashed"), "\(journal)")
        #expect(BenchCLITests.read(out + "/report.md")?.contains("crashed") == false)
    }

    @Test(
        """
        a run killed by SIGKILL: bench report rebuilds every output from its journal, bench run \
        --resume finishes it as a complete run
        """)
    func killedRunIsReportedAndResumed() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/run"
        let options = [
            "--workload", "spin", "--filter", "rounds=0/system|rounds=10/system", "--repetitions", "15", "--samples",
            "3", "--sample-ms", "2",
        ]
        let arguments = options.map { "'\($0)'" }.joined(separator: " ")
        let script = """
            "\(BenchCLITests.bench)" run \(arguments) --out "\(out)" > "\(out).stdout" 2> "\(out).stderr" &
            pid=$!
            while [ "$(cat "\(out)/journal.jsonl" 2> /dev/null | wc -l)" -lt 4 ]; do sleep 0.02; done
            kill -KILL $pid
            wait $pid
            echo "status $?"
            """
        let killed = try await ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", script], deadline: .seconds(120))
        #expect(killed.standardOutput.contains("status 137"), "\(killed.standardOutput)")
        #expect(BenchCLITests.read(out + "/results.json") == nil, "a killed run writes no results")
        let kept = (BenchCLITests.read(out + "/journal.jsonl") ?? "").split(separator: "\n").count - 1

        let report = try await ChildProcess.run(
            executable: BenchCLITests.bench, arguments: ["report", out], deadline: .seconds(120))
        #expect(report.ending == .exited(0), "\(report.standardError)")
        let rebuilt = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json")))
        #expect(
            rebuilt.interrupted?.hasPrefix("killed, or still running, after \(kept) of 30 repetitions") == true,
            "\(rebuilt.interrupted ?? "not marked")")
        #expect(rebuilt.cases.map(\.records.count).reduce(0, +) == kept)
        #expect(
            BenchCLITests.read(out + "/report.md")?.contains(
                "**This run was interrupted** (killed, or still running, after \(kept) of 30") == true)

        let other = try await ChildProcess.run(
            executable: BenchCLITests.bench,
            arguments: ["run"] + options.dropLast(4) + ["--repetitions", "5", "--resume", out],
            deadline: .seconds(120))
        #expect(other.ending == .exited(64), "another selection is refused: \(other.standardError)")
        #expect(
            other.standardError.contains("this selection is not the run's (15 repetitions per case there, 5 here)"),
            "\(other.standardError)")

        let resumed = try await ChildProcess.run(
            executable: BenchCLITests.bench, arguments: ["run"] + options + ["--resume", out], deadline: .seconds(120))
        #expect(resumed.ending == .exited(0), "\(resumed.standardError)")
        #expect(
            resumed.standardOutput.contains("resuming \(out): \(kept) of 30 repetitions finished before"),
            "\(resumed.standardOutput)")
        let complete = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json")))
        #expect(complete.interrupted == nil, "\(complete.interrupted ?? "")")
        #expect(complete.cases.map(\.records.count) == [15, 15])
        #expect(complete.cases.flatMap(\.records).map(\.repetition).sorted() == (0..<15).flatMap { [$0, $0] })
        #expect(BenchCLITests.read(out + "/report.md")?.contains("This run was interrupted") == false)
    }

    @Test(
        """
        SIGINT during bench ab: exit 130, no verdict, both builds' finished cases in a.json and b.json marked \
        interrupted, no child left
        """)
    func interruptedABKeepsBothBuilds() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/ab"
        // The pairs go case by case within each pair: spin A, spin B, then the hang's A child, which
        // is running when the signal comes. Pinned to CPU 1: its request tells it from the other
        // tests' hang children.
        let script = """
            RUNTIMEBENCH_FAULT_INJECTION=1 "\(BenchCLITests.bench)" ab --a "\(BenchCLITests.bench)" \
            --b "\(BenchCLITests.bench)" \
                --workload spin --workload fault --filter 'rounds=0/system|kind=hang/system' --pairs 2 --samples 3 \
            --sample-ms 2 \
                --deadline 60 --cpus 1 --out "\(out)" > "\(out).stdout" 2> "\(out).stderr" &
            pid=$!
            while [ "$(cat "\(out)/journal.jsonl" 2> /dev/null | wc -l)" -lt 2 ]; do sleep 0.05; done
            sleep 0.5
            kill -INT $pid
            wait $pid
            echo "status $?"
            sleep 0.2
            pgrep -af "bench [c]ase" | grep hang | grep -qF '"cpus":[1]' && echo "child left" || echo "no child left"
            """
        let outcome = try await ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", script], deadline: .seconds(120))
        let stderr = BenchCLITests.read(out + ".stderr") ?? ""
        #expect(outcome.standardOutput.contains("status 130"), "\(outcome.standardOutput) \(stderr)")
        #expect(outcome.standardOutput.contains("no child left"), "\(outcome.standardOutput)")
        #expect(
            stderr.contains("bench ab: interrupted (SIGINT); no verdict. What finished is in \(out)/a.json and b.json"),
            "\(stderr)")
        #expect(BenchCLITests.read(out + "/comparison.md") == nil, "no verdict written")
        for build in ["a", "b"] {
            let run = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/\(build).json")))
            #expect(run.interrupted?.hasPrefix("SIGINT after") == true, "\(build): \(run.interrupted ?? "not marked")")
            #expect(run.cases.map(\.benchmarkCase.id) == ["spin/none/rounds=0/system"], "\(build): only what finished")
            #expect(run.cases.first?.records.count == 1, "\(build): the finished process of the case")
        }
        #expect(BenchCLITests.read(out + "/journal.jsonl")?.split(separator: "\n").count == 2)
    }
}

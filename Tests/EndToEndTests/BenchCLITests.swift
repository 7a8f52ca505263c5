#if canImport(Glibc)
import Glibc
#endif
import Counters
import Harness
import Results
import Reports
import Testing
import TestSupport
import Workloads

/// Runs the built `bench` executable as a user would and checks what it leaves on disk.
@Suite("bench CLI end to end")
struct BenchCLITests {
    /// `bench` is built next to the test bundle (this target depends on it).
    static let bench = BuiltProducts.path("bench")

    static func temporaryDirectory() -> String { TestFiles.directory() }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var text = "", buffer = [CChar](repeating: 0, count: 65_536)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return text
    }

    func bench(_ arguments: [String], deadline: Duration = .seconds(120)) async throws -> ChildOutcome {
        try await ChildProcess.run(executable: Self.bench, arguments: arguments, deadline: deadline)
    }

    @Test("bench run --suite smoke writes results.json, results.csv and a journal, and exits 0")
    func smokeRun() async throws {
        let out = Self.temporaryDirectory() + "/run"
        // Every backend's smoke cases, twice: about 80 s of a debug build beside the other tests
        // with eight backends, longer under ThreadSanitizer, where 120 s was no longer enough.
        let outcome = try await bench(
            ["run", "--suite", "smoke", "--repetitions", "2", "--samples", "3", "--sample-ms", "2", "--out", out],
            deadline: .seconds(600))
        #expect(outcome.ending == .exited(0), "stderr: \(outcome.standardError)")
        let json = try #require(Self.read(out + "/results.json"), "no results.json")
        let run = try ResultsJSON.decode(json)
        #expect(run.schema == RunResults.currentSchema)
        #expect(!run.cases.isEmpty)
        for result in run.cases where result.notApplicable == nil {
            #expect(result.records.count == 2, "\(result.benchmarkCase.id): \(result.status)")
            #expect(result.records.allSatisfy { $0.nanosecondsPerOperation.count == 3 && $0.batch >= 1 })
        }
        #expect(run.environment.onlineCPUs >= 1)
        // The children timed a cache line between their first two CPUs, before and after their
        // samples. A child whose probe found both CPUs taken by other threads for its whole budget
        // (this suite runs tests side by side on 2 cores) records none rather than a wrong time.
        let records = run.cases.flatMap(\.records)
        if run.environment.usableCPUs.map({ $0.affinity.count >= 2 }) ?? false {
            let hops = records.compactMap { record in record.cpuHop.map { (record, $0) } }
            #expect(hops.count * 2 >= records.count, "\(records.map(\.cpuHop))")
            #expect(
                hops.allSatisfy { record, hop in
                    hop.cpus == Array(record.cpus.prefix(2)) && hop.beforeNanoseconds > 0 && hop.afterNanoseconds > 0
                }, "\(hops.map(\.1))")
        }
        // Counter availability: every metric a child knows, each "available" or a reason.
        for metric in [
            "task-clock", "cycles", "instructions", "rusage.voluntary-switches", "jemalloc.thread-allocated-bytes",
        ] {
            let state = try #require(run.counterAvailability[metric], "\(metric) missing from counterAvailability")
            #expect(state == .available || (state.reason?.count ?? 0) > 7, "\(metric): \(state)")
        }
        #expect(run.tools["PAPI"] != nil && run.tools["jemalloc"] != nil)
        // One spin calibration for the whole run, recorded where a reader of the results finds it.
        let spin = try #require(run.calibration?["spin-ns-per-round"], "results.json has no spin calibration")
        #expect(spin > 0 && spin.isFinite)
        let csv = try #require(Self.read(out + "/results.csv"))
        #expect(csv.hasPrefix(ResultsCSV.columns.joined(separator: ",") + "\r\n"))
        let journal = try #require(Self.read(out + "/journal.jsonl"))
        #expect(
            journal.split(separator: "\n").count == 1 + run.cases.count * 2,
            "the header, then one journal line per case and repetition")
        // The reports are written at the end of the run, and the run says where.
        for file in ["report.md", "report.html", "jmh-result.json", "smaller-is-better.json"] {
            #expect(Self.read(out + "/" + file) != nil, "no \(file)")
        }
        #expect(
            outcome.standardOutput.contains("bench: wrote \(out)/: results.json, results.csv, report.md"),
            "\(outcome.standardOutput)")
        // The smoke suite's 110 cases: counts on the terminal, not a row per case before the pointer to report.md.
        #expect(outcome.standardOutput.contains("\(run.cases.count) cases: "), "\(outcome.standardOutput)")
        #expect(
            !outcome.standardOutput.contains("a repeat run  processes"),
            "no per-case table: \(outcome.standardOutput.prefix(2000))")
        #expect(outcome.standardOutput.split(separator: "\n").count < 30, "\(outcome.standardOutput.prefix(3000))")
    }

    @Test("bench report regenerates every output into --out, and leaves the input alone when writing beside it")
    func report() async throws {
        let directory = Self.temporaryDirectory()
        let path = directory + "/results.json"
        let empty = RunResults(
            environment: RunEnvironment.capture(gitCommit: "test"), counterAvailability: [:], suite: .quick,
            repetitions: 1, sampleTimeNanoseconds: 5_000_000, cases: [])
        let file = try #require(fopen(path, "w"))
        fputs(try ResultsJSON.encode(empty), file)
        fclose(file)
        let elsewhere = directory + "/elsewhere/report"
        let outcome = try await bench(["report", path, "--out", elsewhere])
        #expect(outcome.ending == .exited(0), "stderr: \(outcome.standardError)")
        #expect(
            outcome.standardOutput.contains("bench: wrote \(elsewhere)/: results.json, results.csv, report.md"),
            "\(outcome.standardOutput)")
        let report = try #require(Self.read(elsewhere + "/report.md"))
        #expect(report.hasPrefix("# RuntimeBench report"))
        #expect(Self.read(elsewhere + "/results.json") != nil, "a report elsewhere carries its results file")

        let beside = try await bench(["report", path])
        #expect(beside.ending == .exited(0), "stderr: \(beside.standardError)")
        #expect(
            beside.standardOutput.contains("bench: wrote \(directory)/: results.csv, report.md"),
            "\(beside.standardOutput)")
    }

    @Test(
        """
        bench report on a missing, truncated or malformed file, or into an unwritable place, \
        exits 2 naming the file and writes nothing
        """)
    func reportErrors() async throws {
        let directory = Self.temporaryDirectory()
        let truncated = directory + "/truncated.json", wrongShape = directory + "/wrong.json",
            good = directory + "/results.json"
        let empty = RunResults(
            environment: RunEnvironment.capture(gitCommit: "test"), counterAvailability: [:], suite: .quick,
            repetitions: 1, sampleTimeNanoseconds: 5_000_000, cases: [])
        let text = try ResultsJSON.encode(empty)
        for (path, contents) in [
            (truncated, String(text.prefix(text.count / 2))), (wrongShape, "{\"schema\": 1}"), (good, text),
        ] {
            let file = try #require(fopen(path, "w"))
            fputs(contents, file)
            fclose(file)
        }
        let out = directory + "/out"
        let cases: [([String], String)] = [
            (
                ["report", directory + "/nowhere.json", "--out", out],
                "cannot read \(directory)/nowhere.json: No such file or directory"
            ),
            (
                ["report", truncated, "--out", out],
                "\(truncated) is not a results file this bench can read: not valid JSON"
            ),
            (
                ["report", wrongShape, "--out", out],
                "\(wrongShape) is not a results file this bench can read: missing field"
            ),
            (["report", good, "--out", truncated + "/sub"], "cannot write the report to \(truncated)/sub"),
        ]
        for (arguments, message) in cases {
            let outcome = try await bench(arguments)
            #expect(outcome.ending == .exited(2), "\(arguments): \(outcome.ending) \(outcome.standardError)")
            #expect(
                outcome.standardError.contains("bench report: " + message), "\(arguments): \(outcome.standardError)")
        }
        #expect(Self.read(out + "/report.md") == nil, "nothing is written from a bad results file")
    }

    @Test("bench report --help explains what it writes and its exit status")
    func reportHelp() async throws {
        let outcome = try await bench(["report", "--help"])
        #expect(outcome.ending == .exited(0))
        for phrase in [
            "report.md", "report.html", "charts/", "jmh-result.json", "smaller-is-better.json", "Exit status",
        ] {
            #expect(outcome.standardOutput.contains(phrase), "\(phrase) missing from: \(outcome.standardOutput)")
        }
    }

    @Test("bench claims answers every claim from a results file, and a missing file is an error naming it")
    func claims() async throws {
        let path = Self.temporaryDirectory() + "/results.json"
        let empty = RunResults(
            environment: RunEnvironment.capture(gitCommit: "test"), counterAvailability: [:], suite: .quick,
            repetitions: 1, sampleTimeNanoseconds: 5_000_000, cases: [])
        let file = try #require(fopen(path, "w"))
        fputs(try ResultsJSON.encode(empty), file)
        fclose(file)
        let text = try await bench(["claims", path])
        #expect(text.ending == .exited(0), "stderr: \(text.standardError)")
        let headers = text.standardOutput.split(separator: "\n").filter { $0.hasPrefix("INCONCLUSIVE: ") }
        #expect(headers.count >= 8, "\(text.standardOutput)")
        #expect(text.standardOutput.contains("not measured: queue-vs-lock/libdispatch/"))

        let json = try await bench(["claims", path, "--json"])
        #expect(json.ending == .exited(0) && json.standardOutput.contains("\"verdict\" : \"inconclusive\""))

        let missing = try await bench(["claims", path + ".nowhere"])
        #expect(missing.ending == .exited(2), "a bad file is exit 2, as for report, compare and check")
        #expect(
            missing.standardError.contains("cannot read \(path).nowhere: No such file or directory"),
            "\(missing.standardError)")
    }

    @Test("--cpus pins every child: each record, and the run's usable CPUs, say CPU 0 only")
    func pinned() async throws {
        let out = Self.temporaryDirectory() + "/pinned"
        let outcome = try await bench([
            "run", "--suite", "smoke", "--workload", "spin", "--allocator", "system",
            "--repetitions", "1", "--samples", "2", "--sample-ms", "1", "--cpus", "0", "--out", out,
        ])
        #expect(outcome.ending == .exited(0), "stderr: \(outcome.standardError)")
        let run = try ResultsJSON.decode(try #require(Self.read(out + "/results.json")))
        let records = run.cases.flatMap(\.records)
        #expect(!records.isEmpty)
        #expect(records.allSatisfy { $0.cpus == [0] }, "\(records.map(\.cpus))")
        // One CPU: no pair to time a cache line between.
        #expect(records.allSatisfy { $0.cpuHop == nil })
        // The machine's identity says so too: a run pinned to CPU 0 is not the unpinned machine.
        #expect(run.environment.usableCPUs?.affinity == [0], "\(String(describing: run.environment.usableCPUs))")
        // The file describes every counter and figure it may record (the workloads', and the
        // threads every case reports), so a reader needs no list of its own.
        let described = Set((run.metrics ?? []).map(\.name))
        #expect(described == Set((CounterSet.catalogue + LiveThreads.figures + Workloads.figures).map(\.name)))
        #expect(records.allSatisfy { Set($0.metricsPerOperation.keys).isSubset(of: described) })
        #expect(records.allSatisfy { Set(($0.workloadMetrics ?? [:]).keys).isSubset(of: described) })
        #expect(records.allSatisfy { $0.workloadMetrics?[LiveThreads.peakName].map { $0.value >= 1 } == true })
    }

    @Test("under jemalloc, a known allocation pattern reads as exactly its bytes per operation")
    func jemallocCounts() async throws {
        guard let library = JemallocLibrary.locate() else {
            let reason = "jemalloc not installed (tools/install-deps.sh installs it; CI does)"
            print("⊘ skipped: not applicable here: \(reason)")
            try Test.cancel(Comment(rawValue: reason))
        }
        if let sanitizer = sanitizerReplacingMalloc() {  // bench is built like this test: sanitized too
            let reason = "\(sanitizer) replaces malloc in this build, so a preloaded jemalloc counts nothing"
            print("⊘ skipped: not applicable here: \(reason)")
            try Test.cancel(Comment(rawValue: reason))
        }
        let out = Self.temporaryDirectory() + "/jemalloc"
        // 50 ms samples: the harness itself still allocates a few hundred bytes per sample on the
        // measuring thread (576 in this debug build, 96 in release), which a 2 ms sample on a busy
        // CI machine (a batch of ~150 operations) turned into 4.7 bytes per operation.
        let outcome = try await bench([
            "run", "--workload", "malloc-free", "--filter", "size=4096/", "--allocator", "jemalloc",
            "--repetitions", "1", "--samples", "3", "--sample-ms", "50", "--out", out,
        ])
        #expect(outcome.ending == .exited(0), "stderr: \(outcome.standardError)")
        let run = try ResultsJSON.decode(try #require(Self.read(out + "/results.json")))
        let record = try #require(run.cases.first?.records.first, "no record with \(library)")
        let bytes = try #require(
            record.metricsPerOperation["jemalloc.thread-allocated-bytes"], "unavailable: \(record.unavailable)")
        // 4096 is a jemalloc size class: every operation allocates exactly that much.
        #expect(abs(bytes - 4096) < 1, "jemalloc counted \(bytes) bytes per malloc(4096)")
        #expect(run.counterAvailability["jemalloc.thread-allocated-bytes"] == .available)
        #expect(
            run.counterAvailability["cycles"] != nil, "cycles is available or unavailable with a reason, never absent")
    }

    @Test("an unknown backend is an error that lists the valid ones, and nothing is written")
    func unknownBackend() async throws {
        let out = Self.temporaryDirectory() + "/never"
        let outcome = try await bench(["run", "--backend", "pthreads", "--out", out])
        #expect(outcome.ending != .exited(0))
        #expect(outcome.standardError.contains("unknown backend 'pthreads'"))
        #expect(outcome.standardError.contains("pthread-mutex"), "the error should list the valid backends")
        #expect(Self.read(out + "/journal.jsonl") == nil)
    }

    @Test("an invalid --filter says it is not a valid regular expression")
    func badFilter() async throws {
        let outcome = try await bench(["run", "--filter", "mutex(", "--out", Self.temporaryDirectory()])
        #expect(outcome.ending != .exited(0))
        #expect(outcome.standardError.contains("not a valid regular expression"), "\(outcome.standardError)")
    }

    @Test("zero repetitions or samples are refused")
    func zeroCounts() async throws {
        for arguments in [["--repetitions", "0"], ["--samples", "0"], ["--sample-ms", "0"]] {
            let outcome = try await bench(["run"] + arguments)
            #expect(outcome.ending != .exited(0))
            #expect(outcome.standardError.contains("must be at least 1"), "\(arguments): \(outcome.standardError)")
        }
    }

    @Test(
        """
        bench agreement: a run checked against a repeat, counts and a summary; \
        fewer than two files or an unreadable one refused
        """)
    func agreement() async throws {
        let directory = Self.temporaryDirectory()
        for name in ["first", "second"] {
            let outcome = try await bench([
                "run", "--workload", "spin", "--allocator", "system", "--repetitions", "3", "--samples", "3",
                "--sample-ms", "2", "--out", directory + "/" + name,
            ])
            #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        }
        let files = [directory + "/first/results.json", directory + "/second/results.json"]
        let outcome = try await bench(["agreement"] + files)
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        #expect(
            outcome.standardOutput.hasPrefix("\(files[0]) → \(files[1]):\n  figures: "), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains(" outside the earlier interval ("), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("  statements: "), "\(outcome.standardOutput)")
        // Spin alone answers no question of the first screen.
        #expect(
            outcome.standardOutput.contains("  answers: 0 of 0 agree, 0 contradict; 0 of 0 the same word for word"),
            "\(outcome.standardOutput)")
        let alone = try await bench(["agreement", files[0]])
        #expect(
            alone.ending == .exited(64) && alone.standardError.contains("give at least two results files"),
            "\(alone.standardError)")
        let missing = try await bench(["agreement", files[0], directory + "/nowhere.json"])
        #expect(
            missing.ending == .exited(2) && missing.standardError.contains("nowhere.json"), "\(missing.standardError)")
    }

    @Test("an output directory that cannot be written is an error before any case runs")
    func unwritableOutput() async throws {
        let file = Self.temporaryDirectory() + "/a-file"
        fclose(fopen(file, "w"))
        let outcome = try await bench(["run", "--suite", "smoke", "--out", file + "/sub"])
        #expect(outcome.ending == .exited(2), "a directory that cannot be written is a file problem: \(outcome.ending)")
        #expect(
            outcome.standardError.contains("bench: cannot create directory \(file)/sub: Not a directory"),
            "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("["), "no case should have run")
    }
}

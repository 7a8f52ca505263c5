#if canImport(Glibc)
import Glibc
#endif
import Counters
import Harness
import Reports
import Results
import Testing
import TestSupport

/// `--count-allocations`: known allocation patterns read their counts on both allocators, a path
/// that allocates nothing reads 0, and a bench without its interposer refuses before running.
@Suite("bench --count-allocations")
struct CountAllocationsCLITests {
    /// Per operation, each record's value of `metric`.
    static func values(_ metric: String, _ result: CaseResult) -> [Double] {
        result.records.compactMap { $0.metricsPerOperation[metric] }
    }

    @Test(
        """
        one object per operation reads 1 object, 1 malloc, 1 free and 24 bytes on both allocators; \
        malloc(64) reads 64 bytes; fifo-dispatch's sync reads 0 mallocs
        """)
    func knownPatterns() async throws {
        if let sanitizer = sanitizerReplacingMalloc() {
            print(
                "⊘ skipped: not applicable here: \(sanitizer) replaces malloc; --count-allocations refuses such a build"
            )
            return
        }
        let out = BenchCLITests.temporaryDirectory() + "/counted"
        let outcome = try await ChildProcess.run(
            executable: BenchCLITests.bench,
            arguments: [
                // Both allocators: the quick suite runs the system allocator alone unless asked.
                "run", "--suite", "quick", "--allocator", "system", "--allocator", "jemalloc", "--filter",
                "^object-alloc/|^malloc-free/none/size=64/|"
                    + "^queue-vs-lock/fifo-dispatch/"
                    + "guard=queue-sync,threads=1,resource=counter,critical=0ns,outside=0ns/system",
                // Long samples: a debug build's harness allocates about 15 times per sample
                // between the counter reads (0 in release), which a short batch on a busy
                // machine turned into 1.02 mallocs per operation. Three processes, and the
                // least of them is checked: that noise only adds, and beside a parallel
                // swift test and a benchmark one process still read 1.24 mallocs per malloc.
                "--repetitions", "3", "--samples", "3", "--sample-ms", "50", "--count-allocations", "--out", out,
            ],
            deadline: .seconds(180))
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        let run = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json")))
        #expect(run.countedAllocations == true)
        let report = try #require(BenchCLITests.read(out + "/report.md"))
        #expect(report.contains("**Allocations were counted**"))
        func near(_ values: [Double], _ expected: Double, _ what: String) {
            #expect(values.min().map { abs($0 - expected) <= 0.01 * max(1, expected) } == true, "\(what): \(values)")
        }
        var seen: Set<String> = []
        for result in run.cases where result.notApplicable == nil {
            let id = result.benchmarkCase.id
            seen.insert(result.benchmarkCase.workload + "/" + result.benchmarkCase.allocator.rawValue)
            switch result.benchmarkCase.workload {
            case "object-alloc":
                near(Self.values("swift.objects", result), 1, "\(id) swift.objects")
                near(Self.values("alloc.mallocs", result), 1, "\(id) alloc.mallocs")
                near(Self.values("alloc.frees", result), 1, "\(id) alloc.frees")
                near(Self.values("alloc.bytes", result), 24, "\(id) alloc.bytes")
            case "malloc-free":
                near(Self.values("alloc.mallocs", result), 1, "\(id) alloc.mallocs")
                near(Self.values("alloc.bytes", result), 64, "\(id) alloc.bytes")
                near(Self.values("swift.objects", result), 0, "\(id) swift.objects")
            default:
                near(Self.values("alloc.mallocs", result), 0, "\(id) alloc.mallocs")
                near(Self.values("swift.objects", result), 0, "\(id) swift.objects")
            }
        }
        #expect(seen.isSuperset(of: ["object-alloc/system", "malloc-free/system", "queue-vs-lock/system"]), "\(seen)")
        if JemallocLibrary.locate() != nil {
            #expect(seen.isSuperset(of: ["object-alloc/jemalloc", "malloc-free/jemalloc"]), "\(seen)")
        }
    }

    @Test("a bench whose interposer is not beside it (or a sanitized one) exits 2 saying why, before writing anything")
    func interposerMissing() async throws {
        let directory = BenchCLITests.temporaryDirectory()
        let copy = directory + "/bench"
        try #require(Self.copy(BenchCLITests.bench, to: copy), "could not copy bench to \(copy)")
        let out = directory + "/never"
        // Another test's child may have been forked while the copy was open for writing and not
        // yet have reached exec (which closes it): exec then fails with ETXTBSY for a moment.
        var attempt = 0
        var launched: ChildOutcome?
        while launched == nil {
            do {
                launched = try await ChildProcess.run(
                    executable: copy,
                    arguments: ["run", "--suite", "smoke", "--workload", "spin", "--count-allocations", "--out", out],
                    deadline: .seconds(60))
            } catch  where "\(error)".contains("Text file busy") && attempt < 50 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        let outcome = try #require(launched)
        #expect(outcome.ending == .exited(2), "\(outcome.standardError)")
        // A sanitized build is refused first, for its own reason.
        let reason =
            sanitizerReplacingMalloc().map { "\($0) replaces malloc in this build" }
            ?? "libRuntimeBenchInterposer.so is not built"
        #expect(outcome.standardError.contains(reason), "\(outcome.standardError)")
        #expect(access(out, F_OK) != 0, "--out was created")
    }

    /// An executable copy of `source` (a copy, not a link: bench finds its interposer beside
    /// /proc/self/exe, which a link would resolve to the original).
    static func copy(_ source: String, to destination: String) -> Bool {
        guard let input = fopen(source, "r") else { return false }
        defer { fclose(input) }
        guard let output = fopen(destination, "we") else { return false }  // close-on-exec: no child inherits it
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var ok = true
        while true {
            let read = fread(&buffer, 1, buffer.count, input)
            if read == 0 { break }
            if fwrite(buffer, 1, read, output) != read { ok = false; break }
        }
        return fclose(output) == 0 && ok && chmod(destination, 0o755) == 0
    }
}

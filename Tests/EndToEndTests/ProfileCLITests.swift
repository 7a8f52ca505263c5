import Glibc
import Harness
import Reports
import Testing
import TestSupport

@Suite("bench profile")
struct ProfileCLITests {
    static func profile(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildOutcome {
        try await ChildProcess.run(
            executable: BenchCLITests.bench, arguments: ["profile"] + arguments, environment: environment,
            deadline: .seconds(180))
    }

    @Test("a profile of spin holds the timed samples, nearly all in the spin function, and names every file")
    func spin() async throws {
        // 1,000 rounds, so a debug build's per-operation harness stays a few percent of the time.
        // perf samples CPU time, and beside the stress tests of a parallel `swift test` the child
        // gets a few percent of a CPU (8 samples in 300 ms in one CI run): a share measured on so
        // few samples says nothing, so a thin profile is taken again with a longer window, and the
        // share is checked once there are 30.
        // A short window can hold no sample at all (a .ci/run had none in 5 × 60 ms), which bench
        // reports as a failed case: that too is a busy machine, and the longer window decides.
        // The share is of the samples in the timed batches. Between batches the harness reads its
        // counters and threads, a fixed CPU cost per sample, while a batch is calibrated in wall
        // time: the busier the machine, the less spinning a sample holds. One such run put 30 of
        // 38 samples in rb_spin.
        var total = 0, spinning = 0
        var folded = "", out = ""
        let windows = [60, 300]
        for sampleMilliseconds in windows where total < Self.enoughSamples {
            out = BenchCLITests.temporaryDirectory() + "/profile"
            let outcome = try await Self.profile([
                "spin/none/rounds=1000/system", "--samples", "5", "--sample-ms", "\(sampleMilliseconds)",
                "--out", out,
            ])
            if outcome.ending == .exited(2), outcome.standardError.contains("perf") {
                print("⊘ skipped: not applicable here: \(outcome.standardError)")
                return
            }
            if outcome.ending == .exited(1), outcome.standardError.contains("perf recorded no sample"),
                sampleMilliseconds != windows.last
            {
                continue
            }
            #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
            folded = try #require(BenchCLITests.read(out + "/spin_none_rounds=1000_system/stacks.folded"))
            (total, spinning) = Self.count(folded, frame: "rb_spin", within: "SpinOperation.run")
        }
        #expect(total > 0)
        if total >= Self.enoughSamples {
            #expect(Double(spinning) >= 0.8 * Double(total), "rb_spin in \(spinning) of \(total) timed samples")
        } else {
            print(
                "⊘ share in rb_spin not checked: \(total) samples with a 1.5 s window, the machine is too busy to tell")
        }
        // The sampler's frames are demangled Swift names, not mangled symbols.
        #expect(folded.contains("Sampler.measure"), "\(folded.prefix(500))")
        #expect(BenchCLITests.read(out + "/spin_none_rounds=1000_system/flamegraph.svg")?.contains("<svg") == true)
        let index = try #require(BenchCLITests.read(out + "/profile.md"))
        #expect(index.contains("## spin/none/rounds=1000/system") && index.contains("| rb_spin |"), "\(index)")
    }

    /// Samples enough to check a share of 80% or more (below it, a share of 6 in 8 is noise).
    static let enoughSamples = 30

    /// The samples of folded stacks with `within` on their stack, and those of them with `frame`.
    static func count(_ folded: String, frame: String, within: String) -> (total: Int, with: Int) {
        var total = 0, with = 0
        for line in folded.split(separator: "\n") where line.contains(within) {
            guard let space = line.lastIndex(of: " "), let samples = Int(line[line.index(after: space)...]) else {
                continue
            }
            total += samples
            if line.contains(frame) { with += samples }
        }
        return (total, with)
    }

    @Test(
        """
        bench run --profile keeps the selected cases' top frames in results.json, and report.md shows them, \
        also when written again
        """)
    func runProfile() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/run-profile"
        let outcome = try await ChildProcess.run(
            executable: BenchCLITests.bench,
            // 1,000 rounds: with 100, a debug build's harness takes 30% of the samples, and on a busy
            // machine a thin profile could put one of its frames on top.
            arguments: [
                "run", "--suite", "quick", "--workload", "spin", "--filter", "rounds=1000/system", "--repetitions", "1",
                "--samples", "2", "--sample-ms", "1", "--profile", "rounds=1000", "--out", out,
            ],
            deadline: .seconds(180))
        if outcome.ending == .exited(2), outcome.standardError.contains("perf") {
            print("⊘ skipped: not applicable here: \(outcome.standardError)")
            return
        }
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        let run = try ResultsJSON.decode(try #require(BenchCLITests.read(out + "/results.json")))
        let profile = try #require(run.profiles?.first)
        #expect(run.profiles?.count == 1 && profile.caseID == "spin/none/rounds=1000/system")
        #expect(profile.top.first?.frame == "rb_spin", "\(profile.top)")
        #expect(BenchCLITests.read(out + "/" + profile.folder + "/flamegraph.svg") != nil)
        let report = try #require(BenchCLITests.read(out + "/report.md"))
        #expect(report.contains("## Where the time goes") && report.contains("| rb_spin |"))
        let again = try await ChildProcess.run(
            executable: BenchCLITests.bench, arguments: ["report", out + "/results.json"],
            deadline: .seconds(60))
        #expect(again.ending == .exited(0), "\(again.standardError)")
        #expect(BenchCLITests.read(out + "/report.md")?.contains("## Where the time goes") == true)
    }

    @Test("without perf: exit 2 saying what to install, and nothing written")
    func perfMissing() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/no-perf"
        let outcome = try await Self.profile(
            ["spin/none/rounds=100/system", "--out", out], environment: ["PATH": "/nonexistent"])
        #expect(outcome.ending == .exited(2))
        #expect(
            outcome.standardError.contains("perf not found on PATH: tools/install-deps.sh installs it"),
            "\(outcome.standardError)")
        #expect(access(out, F_OK) != 0, "nothing written")
    }

    @Test("--diff needs exactly two cases: exit 64 before anything runs otherwise")
    func diffNeedsTwo() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/diff-one"
        let outcome = try await Self.profile(["spin/none/rounds=100/system", "--diff", "--out", out])
        #expect(outcome.ending == .exited(64), "\(outcome.standardError)")
        #expect(
            outcome.standardError.contains("--diff compares two cases; the selection has 1"), "\(outcome.standardError)"
        )
        #expect(access(out, F_OK) != 0, "nothing written")
    }

    @Test("a filter no case matches is a command-line mistake: exit 64 before anything runs")
    func unknownCase() async throws {
        let out = BenchCLITests.temporaryDirectory() + "/no-case"
        let outcome = try await Self.profile(["no-such-workload/.*", "--out", out])
        #expect(outcome.ending == .exited(64), "\(outcome.standardError)")
        #expect(access(out, F_OK) != 0, "nothing written")
    }

    @Test(
        """
        --a and --b profile one case on two builds into a/ and b/ and draw B against A; \
        with one of them, or two cases, exit 64
        """)
    func twoBuilds() async throws {
        let lone = try await Self.profile(["spin/none/rounds=100/system", "--a", BenchCLITests.bench])
        #expect(
            lone.ending == .exited(64) && lone.standardError.contains("--a and --b go together"),
            "\(lone.standardError)")
        let twoCases = try await Self.profile([
            "spin/none/rounds=(0|100)/system", "--a", BenchCLITests.bench, "--b", BenchCLITests.bench,
        ])
        #expect(
            twoCases.ending == .exited(64) && twoCases.standardError.contains("the selection has 2"),
            "\(twoCases.standardError)")
        let out = BenchCLITests.temporaryDirectory() + "/builds"
        // 200 ms of timed samples each, so neither build's child records nothing on a busy machine.
        let outcome = try await Self.profile([
            "spin/none/rounds=1000/system", "--a", BenchCLITests.bench, "--b", BenchCLITests.bench,
            "--samples", "2", "--sample-ms", "100", "--out", out,
        ])
        if outcome.ending == .exited(2), outcome.standardError.contains("perf") {
            print("⊘ skipped: not applicable here: \(outcome.standardError)")
            return
        }
        #expect(outcome.ending == .exited(0), "\(outcome.standardError)")
        for build in ["a", "b"] {
            #expect(
                BenchCLITests.read(out + "/\(build)/spin_none_rounds=1000_system/stacks.folded") != nil,
                "no \(build)/ profile")
        }
        #expect(BenchCLITests.read(out + "/diff/flamegraph.svg")?.contains("<svg") == true)
        let index = try #require(BenchCLITests.read(out + "/profile.md"))
        #expect(
            index.contains("# A: ") && index.contains("# B: ")
                && index.contains("](a/spin_none_rounds=1000_system/flamegraph.svg)"), "\(index)")
    }
}

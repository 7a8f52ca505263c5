import ArgumentParser
import Charts
import Harness
import Profiling
import Results
import Workloads
#if canImport(Glibc)
import Glibc
#endif

/// `bench profile`: where each selected case's time goes, from `perf record` on its child.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile cases with perf: a flame graph, folded stacks and the top frames of each.",
        discussion: """
            Each selected case runs once, in a child process under `perf record` sampling CPU time \
            (cpu-clock, which needs no hardware counters) with call stacks. perf records only while \
            the child takes its timed samples: the warm-up, the batch calibration and the \
            runtime's start and shutdown are left out. Swift names are demangled with the \
            toolchain's swift-demangle.

            Writes, per case, DIR/<case>/flamegraph.svg (hover a frame for its samples and share, \
            click to zoom, Search to mark frames by a regular expression), stacks.folded (the \
            format of FlameGraph's tools) and perf.data (`perf report -i` reads it), and \
            DIR/profile.md with each case's top frames: self is the share of samples running in \
            the frame, total the share with the frame anywhere on the stack.

            --diff compares two cases (select exactly two: two backends on one workload, say): \
            DIR/diff/flamegraph.svg draws the second case's stacks, each frame coloured by how its \
            share of the samples moved from the first's (red grew, blue shrank, grey within a \
            point). The first case in the suite's order (backends in report order) is the baseline.

            --a OLD_BENCH --b NEW_BENCH profiles the one selected case on two builds instead, A \
            then B, into DIR/a and DIR/b, and draws B's stacks against A's in DIR/diff (what \
            `bench ab` measures, seen from the inside). Both builds must have `bench profile`.

            Profile a release build (swift build -c release): a debug build's unspecialized \
            generics fill the profile.

            Needs perf (tools/install-deps.sh installs Debian's linux-perf) and permission to \
            use it: root, or kernel.perf_event_paranoid at 1 or less. Without either, exit 2 \
            with the reason and nothing written.

            Examples:
              bench profile 'spin/none/rounds=100'
              bench profile --workload semaphore --backend fifo-dispatch --suite smoke
              bench profile 'fork-join/work-stealing/fib=25,form=task,split=eager' --call-graph dwarf
              bench profile --diff 'spawn/(fifo-dispatch|libdispatch-c)/pattern=chain/system'
              bench profile --a base/.build/release/bench \
            --b .build/release/bench 'spawn/fifo-dispatch/pattern=chain/system'
            """
    )

    @Argument(help: "Only cases whose id matches this regular expression (the same as --filter).")
    var caseFilter: String?

    @OptionGroup var selection: CaseSelection

    @Option(parsing: .unconditional, help: "Timed samples the child takes while perf records.")
    var samples = 10

    @Option(
        name: .customLong("sample-ms"), parsing: .unconditional,
        help: "Minimum duration of one sample, in milliseconds.")
    var sampleMilliseconds = 100

    @Option(parsing: .unconditional, help: "perf samples per second and thread.")
    var frequency = 999

    @Option(name: .customLong("call-graph"), help: "How perf walks stacks: fp (frame pointers) or dwarf.")
    var callGraph: String = PerfRecorder.CallGraph.fp.rawValue

    @Option(parsing: .unconditional, help: "Seconds after which a child is killed and its profile recorded as failed.")
    var deadline = 120

    @Flag(help: "Compare the two selected cases: a flame graph of the second coloured by its change from the first.")
    var diff = false

    @Option(
        help: ArgumentHelp(
            "A bench executable: profile the one selected case on it and on --b, and draw B against A.",
            valueName: "OLD_BENCH"))
    var a: String?

    @Option(help: ArgumentHelp("The other bench executable (with --a).", valueName: "NEW_BENCH"))
    var b: String?

    @OptionGroup var output: RunOutput

    private var chosen: CaseSelection {
        var chosen = selection
        if let caseFilter { chosen.filter = caseFilter }
        return chosen
    }

    func validate() throws {
        if caseFilter != nil && selection.filter != nil {
            throw ValidationError("give the case filter once: as the argument or as --filter, not both")
        }
        try chosen.validate()
        guard samples >= 1 else { throw ValidationError("--samples must be at least 1, got \(samples)") }
        guard sampleMilliseconds >= 1 else {
            throw ValidationError("--sample-ms must be at least 1, got \(sampleMilliseconds)")
        }
        guard (1...100_000).contains(frequency) else {
            throw ValidationError("--frequency must be between 1 and 100000 Hz, got \(frequency)")
        }
        guard PerfRecorder.CallGraph(rawValue: callGraph) != nil else {
            throw ValidationError(
                "--call-graph must be "
                    + "\(PerfRecorder.CallGraph.allCases.map(\.rawValue).joined(separator: " or ")), "
                    + "got '\(callGraph)'")
        }
        guard deadline >= 1 else { throw ValidationError("--deadline must be at least 1 second, got \(deadline)") }
        if (a == nil) != (b == nil) {
            throw ValidationError("--a and --b go together: two bench executables to compare")
        }
        if a != nil {
            if diff {
                throw ValidationError(
                    "--diff compares two cases of one build; --a and --b compare one case on two builds: "
                        + "give one or the other")
            }
            let cases = try chosen.plan(repetitions: 1).cases
            guard cases.count == 1 else {
                throw ValidationError(
                    "--a and --b profile one case on two builds; "
                        + "the selection has \(cases.count)\(cases.count > 1 ? " (narrow it with the filter)" : "")")
            }
        }
        if diff {
            let cases = try chosen.plan(repetitions: 1).cases
            guard cases.count == 2 else {
                throw ValidationError(
                    "--diff compares two cases; "
                        + "the selection has \(cases.count)\(cases.count > 2 ? " (narrow it with the filter)" : "")")
            }
        }
    }

    func run() throws {
        let plan = try chosen.plan(repetitions: 1)  // validate() has checked every name
        let walk = PerfRecorder.CallGraph(rawValue: callGraph)!
        let (frequency, samples, sampleTime, deadline) = (
            self.frequency, self.samples, Duration.milliseconds(sampleMilliseconds),
            Duration.seconds(self.deadline)
        )
        // The builds to profile on: this one, or A and B, each into a folder of its own.
        var builds: [(label: String?, executable: String)] = [(nil, ChildProcess.ownExecutable())]
        if let a, let b {
            let files = CommandFiles(command: "profile")
            _ = try ABCommand.requireBench(a, flag: "--a", files: files)
            _ = try ABCommand.requireBench(b, flag: "--b", files: files)
            builds = [("A", CommandFiles.absolute(a)), ("B", CommandFiles.absolute(b))]
        }
        var profilers: [CaseProfiler] = []
        do {
            for build in builds {
                profilers.append(
                    try runBlocking {
                        try await CaseProfiler(
                            frequency: frequency, callGraph: walk, executable: build.executable,
                            samples: samples, sampleTime: sampleTime, deadline: deadline)
                    })
            }
        } catch {
            throw ExitStatus.fileProblem("bench profile", "\(error)")
        }
        let profiler = profilers[0]
        let directory = output.directory(prefix: "profile-")
        do { try OutputDirectory.prepareForRun(directory, overwrite: output.overwrite) } catch {
            throw ExitStatus.fail("bench profile", error)
        }
        if let missing = profiler.demangler.missing { writeToStandardError("bench profile: \(missing)\n") }
        let calibration = WorkloadCalibration.measure()
        print("bench profile: \(plan.cases.count) case(s) → \(directory)")
        Interruption.install()
        var index = [
            "# Profiles", "",
            "Each case once under `perf record` (\(profiler.how)); only the timed samples are recorded.", "",
        ]
        var failed = 0
        var profiles: [CaseProfile] = []
        for (build, buildProfiler) in zip(builds, profilers) {
            let folder = build.label.map { directory + "/" + $0.lowercased() } ?? directory
            if let label = build.label {
                do { try OutputDirectory.create(folder) } catch {
                    throw ExitStatus.fileProblem("bench profile", "cannot create \(folder): \(error)")
                }
                index += ["# \(label): \(build.executable)", ""]
            }
            let outcomes = try runBlocking {
                try await buildProfiler.profile(plan.cases, calibration: calibration, into: folder) {
                    writeToStandardError((build.label.map { "[\($0)] " } ?? "") + $0 + "\n")
                }
            }
            for (benchmarkCase, outcome) in outcomes {
                switch outcome {
                case .profiled(let profile):
                    profiles.append(profile)
                    index += profile.summary(linkedFrom: build.label?.lowercased())
                case .notApplicable(let reason):
                    index += ["## \(benchmarkCase.id)", "", "Not applicable: \(reason)", ""]
                case .failed(let reason):
                    failed += 1
                    index += ["## \(benchmarkCase.id)", "", "Failed: \(reason)", ""]
                }
            }
            if Interruption.signal != nil { break }
        }
        do {
            if diff {
                index += try Self.writeDifference(
                    profiles, names: profiles.map(\.caseID), directory: directory, how: profiler.how)
            } else if builds.count == 2 {
                index += try Self.writeDifference(
                    profiles, names: builds.map { "\($0.label!) (\($0.executable))" }, directory: directory,
                    how: profiler.how)
            }
            try writeAtomically(index.joined(separator: "\n") + "\n", to: directory + "/profile.md")
        } catch {
            throw ExitStatus.fileProblem("bench profile", "cannot write \(directory)/profile.md: \(error)")
        }
        print("bench profile: wrote \(directory)/profile.md and a folder per case")
        if let signal = Interruption.signal { throw ExitStatus.interrupted(by: signal) }
        if failed > 0 { throw ExitStatus.foundSomethingWrong }
    }

    /// The second profile against the first, as a differential flame graph in DIR/diff; the
    /// index's section for it.
    /// `names` say what each profile is: its case, or its build.
    static func writeDifference(_ profiles: [CaseProfile], names: [String], directory: String, how: String) throws
        -> [String]
    {
        guard profiles.count == 2, names.count == 2 else {
            return ["## Difference", "", "Not drawn: \(profiles.count) of the 2 profiles were taken.", ""]
        }
        let (base, new) = (profiles[0], profiles[1])
        let graph = FlameGraph(
            title: "\(names[1]) against \(names[0])",
            subtitle: "\(new.stacks.samples) against \(base.stacks.samples) samples: \(how); red grew, blue shrank",
            stacks: new.stacks.counts.map { ($0.key, $0.value) },
            baseline: base.stacks.counts.map { ($0.key, $0.value) })
        try OutputDirectory.create(directory + "/diff")
        try writeAtomically(graph.svg(), to: directory + "/diff/flamegraph.svg")
        return [
            "## Difference", "",
            "[\(names[1]) against \(names[0])](diff/flamegraph.svg): the second's stacks, "
                + "each frame coloured by how its share of the samples moved from the first's (red grew, "
                + "blue shrank, grey within one point).", "",
        ]
    }
}

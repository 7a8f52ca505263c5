#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Harness
import Results

/// One case's child under Linux `perf record`, sampling on CPU time (`cpu-clock`, which needs no
/// PMU) with call stacks, recording only while the child takes its timed samples: perf starts
/// disabled (`-D -1`) and the child enables it through two FIFOs (`ProfileControl`) just before
/// its first sample and disables it after its last.
public struct PerfRecorder: Sendable {
    /// How perf walks a stack at each sample.
    public enum CallGraph: String, Sendable, CaseIterable {
        /// Frame pointers: cheap, and whole stacks here (Swift keeps its frame pointers on x86-64).
        case fp
        /// A copy of the stack unwound with DWARF afterwards: works without frame pointers, costs
        /// far more and truncates deep stacks.
        case dwarf
    }

    public let perf: String
    /// Samples per second on each thread.
    public let frequency: Int
    public let callGraph: CallGraph

    public init(perf: String, frequency: Int, callGraph: CallGraph) {
        self.perf = perf
        self.frequency = frequency
        self.callGraph = callGraph
    }

    /// Why perf cannot profile here.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// perf from PATH, checked by recording `true`: absent, or not permitted (perf_event_paranoid
    /// and not root), is an error saying what to do.
    public static func locate(frequency: Int, callGraph: CallGraph) async throws(Unavailable) -> PerfRecorder {
        guard let perf = ExecutableSearch.find("perf") else {
            throw Unavailable(
                description: "perf not found on PATH: tools/install-deps.sh installs it (Debian's linux-perf)")
        }
        let scratch = "/tmp/bench-perf-probe-\(getpid()).data"
        defer { unlink(scratch) }
        let probe = try? await ChildProcess.run(
            executable: perf, arguments: ["record", "-q", "-e", "cpu-clock", "-o", scratch, "--", "true"],
            deadline: .seconds(30))
        guard let probe, probe.ending == .exited(0) else {
            let paranoid =
                SystemFacts.firstLine("/proc/sys/kernel/perf_event_paranoid").map {
                    "kernel.perf_event_paranoid is \($0)"
                } ?? "perf_event_paranoid unreadable"
            let said =
                probe.map { $0.standardError.split(separator: "\n").first.map(String.init) ?? "\($0.ending)" }
                ?? "it did not run"
            throw Unavailable(
                description: "perf cannot record here (\(said); \(paranoid)): run as root, "
                    + "or set kernel.perf_event_paranoid to 1 or less")
        }
        return PerfRecorder(perf: perf, frequency: frequency, callGraph: callGraph)
    }

    /// Runs `request`'s case once in a child of `executable` under perf, writing the samples to
    /// `data`. The outcome is the child's, as perf passes on its output and exit status.
    public func record(_ request: ChildRequest, executable: String, data: String, deadline: Duration) async throws
        -> ChildOutcome
    {
        let directory = try Self.temporaryDirectory()
        let control = ProfileControl(control: directory + "/control", acknowledgement: directory + "/ack")
        defer {
            unlink(control.control)
            unlink(control.acknowledgement)
            rmdir(directory)
        }
        for fifo in [control.control, control.acknowledgement] where mkfifo(fifo, 0o600) != 0 {
            throw FileError(path: fifo, operation: "create FIFO", errno: errno)
        }
        var request = request
        request.profile = control
        let stacks = callGraph == .fp ? ["-g"] : ["--call-graph", "dwarf"]
        return try await ChildProcess.run(
            executable: perf,
            arguments: ["record", "-q", "-e", "cpu-clock", "-F", "\(frequency)"] + stacks
                + [
                    "--control", "fifo:\(control.control),\(control.acknowledgement)", "-D", "-1", "-o", data,
                    "--", executable, "case", request.encoded(),
                ],
            deadline: deadline)
    }

    /// The call stacks in `data`, read with `perf script` (its output goes to a file, as it can be
    /// larger than a child's output may be).
    public func stacks(of data: String) async throws -> CollapsedStacks {
        let text = data + ".script"
        defer { unlink(text) }
        let outcome = try await ChildProcess.run(
            executable: "/bin/sh",
            arguments: ["-c", "exec \"$0\" script -i \"$1\" -F comm,tid,period,ip,sym,dso > \"$2\"", perf, data, text],
            deadline: .seconds(300))
        guard outcome.ending == .exited(0) else {
            throw Unavailable(
                description: "perf script could not read \(data): "
                    + "\(outcome.standardError.split(separator: "\n").first ?? "\(outcome.ending)")")
        }
        return CollapsedStacks.parse(perfScript: Substring(try readWholeFile(text)))
    }

    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/bench-profile-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FileError(path: "/tmp/bench-profile-XXXXXX", operation: "create directory", errno: errno)
        }
        return String(cString: made)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Harness
import Results
import RuntimeKit

/// Profiles cases one at a time: each in a child under perf (`PerfRecorder`), its stacks read
/// back, Swift names demangled, and its files (perf.data, stacks.folded, flamegraph.svg) in a
/// folder of its own. `bench profile` and `bench run --profile` both use it.
public struct CaseProfiler: Sendable {
    public let recorder: PerfRecorder
    public let demangler: SwiftDemangler
    /// The `bench` executable whose child is profiled.
    public let executable: String
    public let samples: Int
    public let sampleTime: Duration
    public let deadline: Duration

    /// Fails with the reason when perf cannot record here.
    public init(
        frequency: Int, callGraph: PerfRecorder.CallGraph, executable: String, samples: Int, sampleTime: Duration,
        deadline: Duration
    ) async throws(PerfRecorder.Unavailable) {
        recorder = try await PerfRecorder.locate(frequency: frequency, callGraph: callGraph)
        demangler = SwiftDemangler()
        self.executable = executable
        self.samples = samples
        self.sampleTime = sampleTime
        self.deadline = deadline
    }

    /// How the profiles are taken, for their subtitles and the report.
    public var how: String {
        "cpu-clock at \(recorder.frequency) Hz, \(recorder.callGraph == .fp ? "frame-pointer" : "DWARF") stacks, "
            + "the child's \(samples) timed samples of at least \(sampleTime.nanosecondsSaturating / 1_000_000) ms"
    }

    public enum Outcome: Sendable {
        case profiled(CaseProfile)
        case notApplicable(String)
        case failed(String)

        /// One line for the terminal: "1165 samples; most self: rb_spin", or why there is none.
        public var summary: String {
            switch self {
            case .profiled(let profile):
                "\(profile.stacks.samples) samples; most self: \(profile.top.rows.first?.frame ?? "none")"
            case .notApplicable(let reason): "not applicable: \(reason)"
            case .failed(let reason): "failed: \(reason)"
            }
        }
    }

    /// Profiles `cases` one at a time into `directory`, reporting each before and its outcome
    /// after; stops at an interruption (`Interruption`), returning what finished.
    public func profile(
        _ cases: [BenchmarkCase], calibration: [String: Double], into directory: String,
        report: (String) -> Void
    ) async throws -> [(BenchmarkCase, Outcome)] {
        var outcomes: [(BenchmarkCase, Outcome)] = []
        for (position, benchmarkCase) in cases.enumerated() where Interruption.signal == nil {
            report("[\(position + 1)/\(cases.count)] \(benchmarkCase.id)")
            let outcome = try await profile(benchmarkCase, calibration: calibration, into: directory)
            report("  " + outcome.summary)
            outcomes.append((benchmarkCase, outcome))
        }
        return outcomes
    }

    /// Profiles `benchmarkCase` into its folder under `directory`.
    public func profile(_ benchmarkCase: BenchmarkCase, calibration: [String: Double], into directory: String)
        async throws -> Outcome
    {
        let request = ChildRequest(
            benchmarkCase: benchmarkCase, repetition: 0,
            sampler: Sampler(sampleTime: sampleTime, samples: samples), calibration: calibration)
        let folder = directory + "/" + CaseProfile.folder(of: benchmarkCase.id)
        try OutputDirectory.create(folder)
        let data = folder + "/perf.data"
        let outcome = try await recorder.record(request, executable: executable, data: data, deadline: deadline)
        if case .exited(ChildRequest.notApplicableStatus) = outcome.ending {
            unlink(data)
            rmdir(folder)
            return .notApplicable(
                outcome.standardError.split(whereSeparator: \.isNewline).last.map(String.init) ?? "no reason given")
        }
        if case .failed(let reason) = ChildVerdict(outcome) { return .failed(reason) }
        let raw = try await recorder.stacks(of: data)
        let names = await demangler.demangle(raw.frameNames)
        let profile = CaseProfile(caseID: benchmarkCase.id, stacks: raw.renamed { names[$0] ?? $0 }, how: how)
        guard profile.stacks.samples > 0 else {
            return .failed("perf recorded no sample while the case took its samples")
        }
        try writeAtomically(profile.stacks.folded, to: folder + "/stacks.folded")
        try writeAtomically(profile.flameGraph, to: folder + "/flamegraph.svg")
        return .profiled(profile)
    }
}

import ArgumentParser
import Harness
import Profiling
import Results
import Reports
import Workloads

/// `bench run` and `bench check` measure the same way: the output directory and its journal, the
/// calibrations measured once, the run engine (`MeasuredRun`) on this executable with progress,
/// then results.json with every other output.
enum RunAndWrite {
    /// Cases to profile after the measurements (`bench run --profile`), and how.
    struct Profiling: @unchecked Sendable {
        let profiler: CaseProfiler
        let cases: Regex<AnyRegexOutput>
    }

    /// - Throws: exit 2 when `directory` cannot be written or --count-allocations cannot count,
    ///   64 when `directory` holds files and `output.overwrite` is false (all before anything
    ///   runs); 2 when the journal or the results cannot be written; 130/143 after an
    ///   interruption, with what finished written.
    ///   With `resuming` (the journal of `directory`, same plan), the run continues it: its
    ///   finished repetitions are kept, with the calibration they were measured with.
    ///   `modeBudget`: time for more processes where a case's processes fell into modes;
    ///   `answerBudget`: for one round of more processes where a first-screen answer hangs.
    static func run(
        _ plan: RunPlan, suite: Suite, measurement: MeasurementOptions, output: RunOutput, directory: String,
        label: String, profiling: Profiling? = nil, resuming: RunJournal? = nil, modeBudget: Duration = .zero,
        answerBudget: Duration = .zero
    ) async throws -> RunAnalysis {
        try measurement.requireCounting(besides: [ChildProcess.ownExecutable()], label: label)
        let journal: ResultsJournal
        if resuming != nil {
            do { journal = try ResultsJournal(path: directory + "/" + RunJournal.fileName) } catch {
                throw ExitStatus.fail(label, .unwritable(error))
            }
        } else {
            journal = try output.openJournal(in: directory, label: label)
        }
        // Once, here, before any child: every case of the run then spins the same rounds for the
        // same body cost (children measuring for themselves disagree widely; Benchmarks/README.md,
        // "Body costs"). A resumed run keeps the calibration its first part was measured with.
        let calibration = resuming?.header.run.calibration ?? WorkloadCalibration.measure()
        var engine = measurement.measuredRun(plan, suite: suite, calibration: calibration)
        engine.modeBudget = modeBudget
        if answerBudget > .zero {
            engine.answerRound = AnswerRound(budget: answerBudget) { UndecidedAnswers.tiers($0) }
        }
        let progress = ProgressReporter()
        if let resuming {
            print(
                "\(label): resuming \(directory): \(resuming.finished.count) of \(resuming.planned) repetitions "
                    + "finished before; running the rest")
        } else {
            print("\(label): \(plan.cases.count) cases × \(plan.repetitions) repetitions → \(directory)")
        }
        let spin = calibration[SpinCalibration.name].map(Figures.value) ?? "?"
        print("\(label): body costs use \(spin) ns per spin round, measured once for every case of this run")
        var run: RunResults
        do {
            run = try await engine.run(
                .init(executable: ChildProcess.ownExecutable(), environment: BuildStamp.environment()),
                journal: journal, resuming: resuming, progress: progress.report)
        } catch let error as FileError {
            // The journal could not grow (a full disk, a removed directory): stop here, with
            // every line written before still on disk.
            throw ExitStatus.fileProblem(
                label,
                "\(error); the run stopped. The repetitions that finished before are in \(journal.path), "
                    + "one JSON record per line")
        }
        if let profiling, run.interrupted == nil {
            run.profiles = try await profile(
                plan, with: profiling, calibration: calibration, into: directory, label: label)
        }
        let analysis = RunAnalysis(run)
        let written: [String]
        do {
            written = try ResultsWriter.write(analysis, to: directory)
        } catch {
            throw ExitStatus.fileProblem(
                label,
                "cannot write the results: \(error). The \(progress.finished) finished repetitions are kept in "
                    + "\(journal.path), one JSON record per line")
        }
        print("\(label): wrote \(directory)/: \(ResultsWriter.summary(written)), journal.jsonl")
        if let what = run.interrupted, let signal = Interruption.signal {
            writeToStandardError(
                "\(label): interrupted (\(what)); the results and reports hold the cases that finished\n")
            throw ExitStatus.interrupted(by: signal)
        }
        return analysis
    }

    /// Profiles the plan's cases that `profiling` selects into DIR/profiles, one at a time, after
    /// every measurement (a profiled child runs slower and must not share the machine with one).
    static func profile(
        _ plan: RunPlan, with profiling: Profiling, calibration: [String: Double], into directory: String,
        label: String
    ) async throws -> [ProfileSummary] {
        let selected = plan.cases.filter { $0.id.contains(profiling.cases) }
        guard !selected.isEmpty else {
            writeToStandardError("\(label): --profile selects none of this run's cases; nothing profiled\n")
            return []
        }
        let folder = directory + "/profiles"
        try OutputDirectory.create(folder)
        writeToStandardError("\(label): profiling \(selected.count) case(s) under perf\n")
        let outcomes = try await profiling.profiler.profile(selected, calibration: calibration, into: folder) {
            writeToStandardError($0 + "\n")
        }
        return outcomes.compactMap { _, outcome in
            if case .profiled(let profile) = outcome { profile.summary(prefix: "profiles/") } else { nil }
        }
    }
}

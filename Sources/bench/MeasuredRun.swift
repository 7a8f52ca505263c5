import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Counters
import Harness
import Results
import Reports
import Workloads

/// What `bench run` and `bench check` share: create the output directory and its journal,
/// measure the calibrations once, run every case of the plan in child processes with progress,
/// and write results.json with every other output.
enum MeasuredRun {
    /// - Throws: exit 2 when `directory` cannot be written, 64 when it holds files and
    ///   `overwrite` is false (both before anything runs).
    static func run(_ plan: RunPlan, suite: Suite, measurement: MeasurementOptions, directory: String, overwrite: Bool,
                    label: String) async throws -> RunAnalysis {
        let journal = try openJournal(in: directory, overwrite: overwrite, label: label)
        // Once, here, before any child: every case of the run then spins the same rounds for the
        // same body cost (children measuring for themselves disagreed by up to ±30%).
        let calibration = WorkloadCalibration.measure()
        let runner = Runner(executable: ownExecutable(), launcher: measurement.launcher(for: suite, calibration: calibration))
        let progress = ProgressReporter(total: plan.cases.count * plan.repetitions)
        print("\(label): \(plan.cases.count) cases × \(plan.repetitions) repetitions → \(directory)")
        let spin = calibration[SpinCalibration.name].map(Figures.value) ?? "?"
        print("\(label): body costs use \(spin) ns per spin round, measured once for every case of this run")
        Interruption.install()
        let loadBefore = MachineLoad.Reading.now()
        let results: [CaseResult]
        do {
            results = try await runner.run(plan, journal: journal, progress: progress.report)
        } catch let error as FileError {
            // The journal could not grow (a full disk, a removed directory): stop here, with
            // every line written before still on disk.
            writeToStandardError("\(label): \(error); the run stopped. The repetitions that finished before are in \(journal.path), one JSON record per line\n")
            throw ExitCode(2)
        }

        var run = RunResults(environment: BuildStamp.environment(),
                             counterAvailability: RunResults.counterAvailability(of: results), suite: suite.rawValue,
                             repetitions: plan.repetitions,
                             sampleTimeNanoseconds: Int64(measurement.sampleMilliseconds(for: suite)) * 1_000_000, cases: results)
        run.calibration = calibration
        run.metrics = CounterSet.catalogue
        run.tools = tools
        if let loadBefore, let loadAfter = MachineLoad.Reading.now() { run.load = MachineLoad(from: loadBefore, to: loadAfter) }
        let done = progress.finished
        let interruption = Interruption.signal.map(Interruption.describe)
        if let interruption {
            run.interrupted = "\(interruption.name) after \(done) of \(plan.cases.count * plan.repetitions) repetitions"
        }
        let analysis = RunAnalysis(run)
        let written: [String]
        do {
            written = try ResultsWriter.write(analysis, to: directory)
        } catch {
            writeToStandardError("\(label): cannot write the results: \(error). The \(done) finished repetitions are kept in \(journal.path), one JSON record per line\n")
            throw ExitCode(2)
        }
        print("\(label): wrote \(directory)/: \(ResultsWriter.summary(written)), journal.jsonl")
        if let interruption, let what = run.interrupted {
            writeToStandardError("\(label): interrupted (\(what)); the results and reports hold the cases that finished\n")
            throw ExitCode(interruption.status)
        }
        return analysis
    }

    /// `directory` prepared for a run (`OutputDirectory.prepareForRun`) and its journal opened;
    /// exit 2 or 64 (`ExitStatus.fail`) before anything runs when it cannot take the run.
    static func openJournal(in directory: String, overwrite: Bool, label: String) throws -> ResultsJournal {
        do { try OutputDirectory.prepareForRun(directory, overwrite: overwrite) } catch { throw ExitStatus.fail(label, error) }
        do { return try ResultsJournal(path: directory + "/journal.jsonl") } catch { throw ExitStatus.fail(label, .unwritable(error)) }
    }

    /// The optional tools a run looked for, and what it found.
    static var tools: [String: String] {
        ["PAPI": PAPIProbe().summary,
         "jemalloc": JemallocLibrary.locate().map { "available: \($0)" } ?? "unavailable: libjemalloc.so.2 not found"]
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }

    /// This process's executable, re-run for each child.
    static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(length > 0, "cannot read /proc/self/exe: \(String(cString: strerror(errno)))")
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import ArgumentParser
import Claims
import Harness
import Profiling
import Results
import Reports

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run workloads on backends, each case in its own process, and write the results.",
        discussion: """
            Every case (workload × parameters × backend × allocator) runs --repetitions times, \
            each time in a fresh child process: warm-up, a calibrated batch so one sample lasts \
            --sample-ms, then --samples samples. A child that crashes, hangs past --deadline or \
            prints garbage is recorded as failed with the reason, and the run goes on; the exit \
            status is 1 if any case failed. Finished cases are journaled at once, so an \
            interrupted run keeps them (DIR/journal.jsonl).

            A case's figure is the median over its processes of each process's median sample \
            (the mean of its samples where they switched modes as it ran), \
            and its interval is where a repeat run's figure should fall: processes, not samples, \
            decide how well a figure is known, so add --repetitions rather than --samples to \
            settle a tie. `bench agreement` checks a run against a repeat.

            Examples:
              bench run --suite smoke
              bench run --suite quick --filter 'mutex' --repetitions 5
              bench run --backend pthread-mutex --backend libdispatch --allocator system
            """
    )

    @OptionGroup var selection: CaseSelection

    @Option(
        parsing: .unconditional,
        help: "Child processes per case (default: 3 for the smoke suite, 5 for the quick and full suites).")
    var repetitions: Int?

    @Option(
        name: .customLong("mode-budget"), parsing: .unconditional,
        help: ArgumentHelp(
            """
            Seconds to spend, after every case's repetitions, on more processes for the cases whose processes \
            fell into modes (a fast and a slow group, twice apart or more) and kept them as they ran, until each \
            mode's share is known to \
            ±15 points or the time is spent (default: 0 for the smoke suite, 20 for the quick suite, 120 for \
            the full suite, and 0 with --repetitions, which then holds for every case; 0 adds none).
            """, valueName: "seconds"))
    var modeBudget: Int?

    @Option(
        name: .customLong("answer-budget"), parsing: .unconditional,
        help: ArgumentHelp(
            """
            Seconds for one round, after every case's repetitions, of 12 more processes for each case on which \
            a first-screen answer hangs (a contender more than 5% behind the best that the run cannot yet tell \
            to be that far behind, with the best and those within 5% of it) or a claim's timing comparison \
            (neither side clearly faster), then, with the time left, where a parameter set's winner hangs \
            the same way (default: 0 for the smoke suite, 45 for the quick suite, 60 for the full suite, and \
            0 with --repetitions; cases that would overrun it are left out, the cheapest kept).
            """, valueName: "seconds"))
    var answerBudget: Int?

    @OptionGroup var measurement: MeasurementOptions

    @OptionGroup var output: RunOutput

    @Option(
        help:
            """
            Continue the run in DIR, killed or interrupted before its end (SIGKILL, a lost machine): \
            its finished repetitions are kept and the rest run. \
            Give the same case selection and options as the run had.
            """)
    var resume: String?

    @Option(
        help:
            """
            Also profile the cases whose id matches this regular expression, once each under perf after the run \
            (as `bench profile` does); report.md shows where their time goes.
            """)
    var profile: String?

    private var repetitionsPerCase: Int { repetitions ?? selection.chosenSuite.defaultRepetitions }

    func validate() throws {
        guard repetitionsPerCase >= 1 else {
            throw ValidationError("--repetitions must be at least 1, got \(repetitionsPerCase)")
        }
        if let modeBudget, modeBudget < 0 {
            throw ValidationError("--mode-budget is in seconds and cannot be negative, got \(modeBudget)")
        }
        if let answerBudget, answerBudget < 0 {
            throw ValidationError("--answer-budget is in seconds and cannot be negative, got \(answerBudget)")
        }
        if resume != nil, output.out != nil {
            throw ValidationError("--resume DIR continues the run in DIR: it takes no --out")
        }
        if let profile {
            if let problem = RegexPattern.problem(with: profile) {
                throw ValidationError("--profile '\(RegexPattern.shown(profile))' \(problem)")
            }
            guard (try? Regex(profile)) != nil else {
                throw ValidationError("--profile '\(RegexPattern.shown(profile))' is not a valid regular expression")
            }
        }
    }

    func run() throws {
        try runBlocking { try await self.runAsync() }
    }

    /// The journal of the run in `directory`, checked to plan what `plan` plans; exit 2 when it
    /// cannot be read, 64 when it is another selection.
    static func journalToResume(in directory: String, matching plan: RunPlan) throws -> RunJournal {
        let journal: RunJournal
        do { journal = try RunJournal(path: directory + "/" + RunJournal.fileName) } catch {
            throw ExitStatus.fileProblem("bench run --resume", error.description)
        }
        let planned = journal.header.plan.map(\.id), selected = plan.cases.map(\.id)
        guard planned == selected, journal.header.run.repetitions == plan.repetitions else {
            let differences =
                planned == selected
                ? "\(journal.header.run.repetitions) repetitions per case there, \(plan.repetitions) here"
                : "\(planned.count) cases there (suite \(journal.header.run.suite)), \(selected.count) here"
            throw ValidationError(
                "--resume \(directory): this selection is not the run's (\(differences)); give the options the run had")
        }
        if journal.finished.count >= journal.planned {
            writeToStandardError(
                "bench run --resume: \(directory) finished every repetition already; its outputs are written again\n")
        }
        return journal
    }

    private func runAsync() async throws {
        let plan = try selection.plan(repetitions: repetitionsPerCase)  // validate() has checked every name
        let directory = resume ?? output.directory(prefix: "")
        let resuming = try resume.map { try Self.journalToResume(in: $0, matching: plan) }
        var profiling: RunAndWrite.Profiling?
        if let profile {
            do {
                profiling = .init(
                    profiler: try await CaseProfiler(
                        frequency: 999, callGraph: .fp, executable: ChildProcess.ownExecutable(),
                        samples: 10, sampleTime: .milliseconds(100), deadline: .seconds(120)),
                    cases: try Regex(profile))
            } catch let error as PerfRecorder.Unavailable {
                throw ExitStatus.fileProblem("bench: --profile", "\(error)")
            }
        }
        let analysis = try await RunAndWrite.run(
            plan, suite: selection.chosenSuite, measurement: measurement, output: output,
            directory: directory, label: "bench", profiling: profiling, resuming: resuming,
            modeBudget: .seconds(
                modeBudget ?? (repetitions == nil ? selection.chosenSuite.defaultModeBudgetSeconds : 0)),
            answerBudget: .seconds(
                answerBudget ?? (repetitions == nil ? selection.chosenSuite.defaultAnswerBudgetSeconds : 0)))
        let run = analysis.run
        SummaryTable.print(run.cases, estimates: analysis.estimates)
        if selection.chosenSuite != .smoke {
            print("\nClaims of the dispatch guide, as this run measured them (`bench claims` reprints them):")
            VerdictList.print(analysis.verdicts)
        }
        print(
            "bench: read \(directory)/report.md first; `bench report \(directory)/results.json` "
                + "writes the outputs again")
        let failed = run.cases.filter { $0.notApplicable == nil && !$0.failures.isEmpty }
        if !failed.isEmpty {
            print("bench: \(failed.count) case(s) had failures")
            throw ExitStatus.foundSomethingWrong
        }
    }
}

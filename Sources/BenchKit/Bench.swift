import ArgumentParser
import Backends
import Counters
import Harness
import Reports
import RuntimeKit
import Workloads
#if canImport(Glibc)
import Glibc
#endif

/// The `bench` command, with every subcommand: this package's executable calls it with nothing to
/// add, and another package's executable with its own runtimes and workloads
/// (`Bench.main(runtimes: [MyPool.self], workloads: [MyCache()])`, README.md "Benchmark your own
/// runtime or code"). Each case's child process re-executes the same binary, whose `main`
/// registers the same things, so the child finds them.
///
/// Synchronous on purpose: an async entry point starts libdispatch and Swift's cooperative pool
/// in every process, and a `bench case` child must not carry threads it did not ask for (an
/// uncontended mutex costs less while a process has one thread). Only `bench run` starts the
/// concurrency runtime, through `runBlocking`.
public struct Bench: ParsableCommand {
    public init() {}

    /// Registers `runtimes`, `workloads`, counter sources and output formats after the built-in
    /// ones, then runs the command line. A registration that collides with another or cannot form
    /// a case id exits 64 with the reason, before anything runs.
    public static func main(
        runtimes: [any ConcurrencyRuntime.Type] = [],
        workloads: [any Workload] = [],
        counters: [any CounterSource.Type] = [],
        formats: [any OutputFormat.Type] = []
    ) -> Never {
        do {
            try Backends.register(runtimes)
            try Workloads.register(workloads)
            try CounterSet.register(counters)
            try ResultsWriter.register(formats)
        } catch {
            writeToStandardError("\(invokedName): cannot register: \(error)\n")
            Glibc.exit(ExitStatus.commandLineMistake)
        }
        Self.main(nil)  // ArgumentParser's: parses, runs, exits with the command's status
        Glibc.exit(0)
    }

    /// The name the binary was started as, so another package's `my-bench --help` says
    /// `my-bench` in its usage lines and examples.
    static let invokedName: String = {
        let name = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? "bench" : name
    }()

    public static var configuration: CommandConfiguration {
        let bench = invokedName
        return CommandConfiguration(
            commandName: bench,
            abstract:
                "Measure concurrency runtimes on this machine: queues, locks, semaphores, groups, apply striding.",
            discussion: """
                Every backend implements the same runtime protocol; workloads run on each of them. \
                Start with `\(bench) list` to see the workloads, backends and what each cannot do, then \
                `\(bench) run --suite smoke` for a first run in seconds. A run ends by writing report.md \
                (what to use, the claims' verdicts, a table per family), charts and exports beside its \
                results; `\(bench) report RESULTS.json` writes them again.

                In CI: `\(bench) check --baseline FILE` gates on regressions against a committed run \
                (exit 0 none, 1 regression, 2 bad input), and `\(bench) ab --a OLD --b NEW` runs two \
                builds side by side and gates on the paired comparison; `\(bench) compare` shows two runs \
                side by side. Sources/Gate/README.md has the rule and the gate's measured error rates.

                `\(bench) soak` runs each backend for minutes under a mixed load and checks that every \
                task ran exactly once and the resident set stayed flat. `\(bench) fidelity` sets each \
                figure beside the same operation written directly against the runtime (C, idiomatic \
                Swift, the concrete type) and says whether the suite's own layers stay within 1.25×.

                Every command exits with the same statuses:
                  0        done, nothing found wrong
                  1        it ran and found something wrong: a failed case, a regression, a row
                           over the fidelity bound, a soak that lost a task
                  2        a file or directory cannot be read, understood or written
                  3        nothing was comparable (bench check: the baseline is another
                           machine's and no count was measured, or a baseline folder holds
                           no earlier run of this machine)
                  64       a mistake on the command line: an unknown option or name, a missing
                           required option, a value out of range, an --out holding another run
                  130/143/129  interrupted by SIGINT/SIGTERM/SIGHUP; what finished is kept
                """,
            version: BuildStamp.description,
            subcommands: [
                List.self, RunCommand.self, ReportCommand.self, HistoryCommand.self, ClaimsCommand.self,
                CompareCommand.self, CheckCommand.self,
                ABCommand.self, AgreementCommand.self, SoakCommand.self, FidelityCommand.self, ProfileCommand.self,
                DoctorCommand.self, CaseCommand.self, SoakChildCommand.self,
            ]
        )
    }
}

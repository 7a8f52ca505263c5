import ArgumentParser
import Backends
import FoundationEssentials
import Harness
import Results
import RuntimeKit
import Soak
#if canImport(Glibc)
import Glibc
#endif

/// `bench soak`: each backend for minutes under a mixed load, in a child process of its own, every
/// task checked to run exactly once and the resident set checked to stay flat.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run each backend for minutes under a mixed load; check that no task is lost or run twice "
            + "and memory stays flat.",
        discussion: """
            Each backend runs in a child process of its own, for --duration seconds, in rounds. A \
            round submits, all at once: async blocks that signal a semaphore, group members (some \
            adding members to their own group), enter/leave pairs with a notify, blocks on 1–8 \
            serial queues with sync calls among them, blocks taking a semaphore used as a lock, \
            blocks on four queues at once nesting a sync inside a sync (where the backend \
            supports blocking inside work), and an apply loop run meanwhile. Then a second apply \
            runs while every worker is busy with a block that waits for it to return. Then it \
            waits for all of it, each wait with --wait-timeout. The sizes change every round, \
            drawn from --seed.

            Every task counts itself in a ledger that must read exactly 1 per task when the round \
            ends; serial queues check their order, every sync checks it saw the blocks before it. \
            The first mistake stops that backend's soak and names the round and the tasks. The \
            resident set is read from /proc/self/statm before the runtime exists, when the warm-up \
            ends, about once a second, and at the end; growing by more than --max-growth after the \
            warm-up fails the soak. A crash or hang of the child fails that backend only; the \
            others still run.

            Exit status: 0 every backend passed, 1 one failed, 2 the --json file cannot be \
            written (checked before anything runs; the table is printed first should it fail at \
            the end), 64 a mistake on the command line (a bad option or value), 130/143 \
            interrupted by SIGINT/SIGTERM (the backends that finished are reported).

            Examples:
              bench soak                                    # every backend, 2 minutes each
              bench soak --backend fifo-dispatch --duration 600 --json soak.json
              bench soak --duration 5                       # the CI's short version
            """
    )

    @Option(name: .customLong("backend"), help: "Only this backend (repeatable). Default: every backend.")
    var backends: [String] = []

    @Option(parsing: .unconditional, help: "Seconds of soak per backend.")
    var duration: Double = 120

    @Option(
        name: .customLong("warm-up"), parsing: .unconditional,
        help: "Seconds after which the reference resident set is read (default: a tenth of --duration, at most 10).")
    var warmUp: Double?

    @Option(parsing: .unconditional, help: "Worker threads, for backends that take a count (0: one per CPU).")
    var workers: Int = 0

    @Option(parsing: .unconditional, help: "Seed of the rounds' sizes: the same seed gives the same rounds.")
    var seed: UInt64 = 1

    /// 4 MiB: well above the growth a sound soak shows after its warm-up (README, "Soak every
    /// backend"), while one leaked 48-byte node per block would be gigabytes.
    @Option(
        name: .customLong("max-growth"), parsing: .unconditional,
        help: "MiB the resident set may grow after the warm-up before the soak fails.")
    var maxGrowth: Double = 4

    @Option(
        name: .customLong("wait-timeout"), parsing: .unconditional,
        help: "Seconds a round waits for any one thing before it reports a hang.")
    var waitTimeout: Double = 30

    @Option(help: "Also write every backend's report and verdict to this JSON file.")
    var json: String?

    func validate() throws {
        guard duration > 0, duration <= 86_400 else {
            throw ValidationError("--duration must be between 0 and 86400 seconds, got \(duration)")
        }
        if let warmUp, !(warmUp >= 0 && warmUp < duration) {
            throw ValidationError("--warm-up must be at least 0 and less than --duration (\(duration)), got \(warmUp)")
        }
        guard workers >= 0 else { throw ValidationError("--workers must be 0 or more, got \(workers)") }
        guard maxGrowth >= 0, maxGrowth.isFinite else {
            throw ValidationError("--max-growth must be 0 or more MiB, got \(maxGrowth)")
        }
        guard waitTimeout > 0, waitTimeout <= 3_600 else {
            throw ValidationError("--wait-timeout must be between 0 and 3600 seconds, got \(waitTimeout)")
        }
        do { _ = try selectedBackends() } catch { throw ValidationError(error.description) }
    }

    private func selectedBackends() throws(PlanError) -> [Backend] {
        try RunPlan.select(backends, from: Backends.all, kind: "backend") { $0.id }
    }

    func run() throws {
        let selected = try selectedBackends()  // validate() has checked every name
        try CommandFiles(command: "soak").checkWritable(json, option: "--json")
        let warmUp = self.warmUp.map { Duration.seconds($0) } ?? SoakSettings.defaultWarmUp(for: .seconds(duration))
        let settings = SoakSettings(
            duration: .seconds(duration), warmUp: warmUp, workers: workers, seed: seed,
            waitTimeout: .seconds(waitTimeout))
        let parent = SoakParent(
            executable: ChildProcess.ownExecutable(), settings: settings,
            maximumGrowth: Int(maxGrowth * 1_048_576))
        print(
            "soak: \(selected.count) backend(s), \(SoakParent.format(settings.duration)) each "
                + "(warm-up \(SoakParent.format(warmUp))), seed \(seed), memory may grow \(maxGrowth) MiB")
        Interruption.install()
        let verdicts = try runBlocking { try await parent.run(selected) { writeToStandardError($0 + "\n") } }

        SoakTable.print(verdicts)
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let file = SoakFile(
                settings: .init(
                    duration: duration, warmUp: Double(warmUp.nanosecondsSaturating) / 1e9, workers: workers,
                    seed: seed, maximumGrowthMiB: maxGrowth, waitTimeout: waitTimeout),
                interrupted: Interruption.signal.map { Interruption.describe($0).name }, backends: verdicts)
            do {
                try writeAtomically(String(decoding: try encoder.encode(file), as: UTF8.self) + "\n", to: json)
            } catch {
                throw ExitStatus.fileProblem("soak", "cannot write \(json): \(error)")
            }
            print("soak: wrote \(json)")
        }
        if let signal = Interruption.signal {
            writeToStandardError(
                "soak: interrupted by \(Interruption.describe(signal).name) after \(verdicts.count) of "
                    + "\(selected.count) backends; the table holds those that finished\n")
            throw ExitStatus.interrupted(by: signal)
        }
        let failed = verdicts.filter { !$0.passed }
        if !failed.isEmpty {
            writeToStandardError(
                "soak: \(failed.count) backend(s) failed: \(failed.map(\.backend).joined(separator: ", "))\n")
            throw ExitStatus.foundSomethingWrong
        }
    }
}

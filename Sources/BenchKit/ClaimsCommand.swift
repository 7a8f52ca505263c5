import ArgumentParser
import Claims
import FoundationEssentials
import Harness
import Results
import Reports
#if canImport(Glibc)
import Glibc
#endif

/// `bench claims RESULTS.json`: the verdicts of the guide's claims for a finished run. `bench run`
/// prints the same at its end.
struct ClaimsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claims",
        abstract: "Test the dispatch guide's claims against a results file: supported, refuted or inconclusive.",
        discussion: """
            Each claim of gcd-guide-dispatch-queues.txt that the suite measures ("queue-based \
            synchronization is more efficient than locks", "semaphores call down to the kernel \
            only when the calling thread needs to be blocked", ...) gets a verdict with the numbers \
            behind it and the conditions it holds under. A timing claim is supported or refuted only \
            when the two figures differ by more than the spread between their processes allows \
            (so a repeat run would say the same); a claim about system calls or \
            page faults needs that counter (`bench doctor` says whether this machine has it). \
            Anything missing makes the verdict inconclusive, with the reason. The quick suite runs \
            every case the claims need.

            Exit status: 0 the verdicts were printed (whatever they are), 2 the file is missing, \
            unreadable, malformed or of another schema.

            Examples:
              bench claims bench-results/20261122-190000/results.json
              bench claims results.json --json
            """
    )

    @Argument(help: "A results.json written by `bench run`.")
    var results: String

    @Flag(help: "Print the verdicts as JSON instead of text.")
    var json = false

    func run() throws {
        // A bad file is exit 2 with one line naming it, as for `report`, `compare` and `check`.
        let run = try CommandFiles(command: "claims").results(results, role: "results")
        let verdicts = Claim.verdicts(for: run)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Swift.print(String(decoding: try encoder.encode(verdicts), as: UTF8.self))
        } else {
            VerdictList.print(verdicts)
        }
    }
}

import ArgumentParser
import Counters
import FoundationEssentials
import Harness
import Workloads
#if canImport(Glibc)
import Glibc
#endif

/// `bench case <request>`: one case measured in this process (`CaseChild`), its record printed as
/// one JSON line on standard output; anything else goes to standard error. `bench run` and
/// `bench ab` start it for every case and repetition. Not meant to be run by hand.
struct CaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "case",
        abstract: "Run one case in this process and print its record (used by `bench run`).",
        shouldDisplay: false
    )

    @Argument(help: "The request, as JSON.")
    var request: String

    func run() throws {
        let child = CaseChild(
            workload: Workloads.named, calibrate: WorkloadCalibration.use,
            openCounters: { CounterSet(backend: $0, events: $1) })
        let outcome: CaseChild.Outcome
        do {
            outcome = try child.run(request)
        } catch let error as CaseChild.RequestError {
            throw ValidationError(error.description)
        }
        switch outcome {
        case .record(let record):
            print(String(decoding: try JSONEncoder().encode(record), as: UTF8.self))
        case .notApplicable(let why):
            writeToStandardError("\(why)\n")
            Glibc.exit(ChildRequest.notApplicableStatus)
        }
    }
}

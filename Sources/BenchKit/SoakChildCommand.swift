import ArgumentParser
import Backends
import FoundationEssentials
import Harness
import Results
import Soak
import Workloads
#if canImport(Glibc)
import Glibc
#endif

/// The child side of `bench soak`: one backend's soak in this process, its report printed as one
/// JSON line. A fresh process per backend, so each starts from the same resident set and a crash
/// costs that backend alone. Not meant to be run by hand.
struct SoakChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak-child",
        abstract: "Soak one backend in this process and print its report (used by `bench soak`).",
        shouldDisplay: false
    )

    @Option var backend: String
    @Option var duration: Double
    @Option(name: .customLong("warm-up")) var warmUp: Double
    @Option var workers: Int
    @Option var seed: UInt64
    @Option(name: .customLong("wait-timeout")) var waitTimeout: Double

    /// For the tests, with `RUNTIMEBENCH_FAULT_INJECTION=1`: `trap:BACKEND` makes that backend's
    /// child trap, to show that `bench soak` reports it and goes on with the others.
    static let faultVariable = "RUNTIMEBENCH_SOAK_FAULT"

    func run() throws {
        guard let backend = Backends.named(backend) else { throw ValidationError("unknown backend '\(self.backend)'") }
        let settings = SoakSettings(
            duration: .seconds(duration), warmUp: .seconds(warmUp), workers: workers,
            seed: seed, waitTimeout: .seconds(waitTimeout))
        if FaultInjection.enabled, let fault = getenv(Self.faultVariable).map({ String(cString: $0) }),
            fault == "trap:\(backend.id)"
        {
            fatalError("injected soak trap (\(Self.faultVariable))")
        }
        do {
            try backend.runtime.prepareProcess()  // nio-global: NIO takes over Swift's global executor here
        } catch {
            throw ValidationError("\(backend.id) cannot run in this process: \(error)")
        }
        let report = Soak.run(backend, settings: settings)
        print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
    }
}

import CaseCatalogue
import Backends
import Harness
import Results
#if canImport(Glibc)
import Glibc
#endif

/// `fault`: a case that misbehaves on purpose, one way per `kind`, so the tests can show that a
/// run records each failure with its reason and goes on with the other cases. It exists only
/// when `RUNTIMEBENCH_FAULT_INJECTION=1` is in the environment (`Workloads.all` leaves it out
/// otherwise), so no user run can select it by accident.
public struct FaultInjection: Workload {
    public init() {}

    public static let environmentVariable = "RUNTIMEBENCH_FAULT_INJECTION"

    /// Whether this process may offer the workload.
    public static var enabled: Bool { getenv(environmentVariable).map { String(cString: $0) == "1" } ?? false }

    public enum Kind: String, CaseIterable, Sendable {
        /// A Swift runtime trap (`fatalError`): SIGILL or SIGTRAP.
        case trap
        /// A store through an invalid pointer: SIGSEGV.
        case segfault
        /// Never returns: the parent's deadline kills it.
        case hang
        /// Prints a line that is not a record and exits 0.
        case garbage
        /// Exits with status 3 before printing anything.
        case earlyExit = "early-exit"
    }

    public let name = WorkloadName.fault.rawValue
    public let summary =
        "fault injection for the tests (RUNTIMEBENCH_FAULT_INJECTION=1): trap, segfault, hang, garbage, early exit"
    public let operation = "misbehave, once"
    public let usesBackend = false

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        Kind.allCases.map { [Parameter("kind", $0.rawValue)] }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        FaultOperation(kind: try benchmarkCase.choice("kind"))
    }
}

final class FaultOperation: MeasuredOperation {
    let kind: FaultInjection.Kind

    init(kind: FaultInjection.Kind) { self.kind = kind }

    func run(_ count: Int) throws {
        switch kind {
        case .trap:
            fatalError("injected trap (fault workload)")
        case .segfault:
            UnsafeMutablePointer<Int>(bitPattern: 16)!.pointee = 1
        case .hang:
            while true { sleep(1) }
        case .garbage:
            print("this is not a record {")
            exit(0)
        case .earlyExit:
            writeError("injected early exit (fault workload)\n")
            exit(3)
        }
    }

    func finish() throws {}

    private func writeError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

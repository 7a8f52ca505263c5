import Backends
import Harness
import PThreadPrimitives
import Results
import RuntimeKit

/// Every workload this binary knows, in report order: the built-in ones, then those another
/// package registered (`register`, which `Bench.main` calls before anything runs). A new
/// built-in workload is one file in this folder, its name in `CaseCatalogue`, and one line here.
public enum Workloads {
    public static let builtIn: [any Workload] =
        [
            Spin(),
            MutexUncontended(),
            MallocFree(),
            ObjectAlloc(),
            ForkJoin(),
            ApplyStride(),
            ApplySerial(),
            Spawn(),
            ThreadSpawn(),
            QueueVsLock(),
            Footprint(),
            Semaphores(),
            Groups(),
            SwiftAsync(),
            Direct(),
        ] + (FaultInjection.enabled ? [FaultInjection()] : [])

    /// Written by `register`, normally once before anything reads it (a pthread mutex, which
    /// ThreadSanitizer sees).
    private static let lock = PThreadMutex()
    nonisolated(unsafe) private static var registered: [any Workload] = []

    public static var all: [any Workload] { builtIn + lock.withLock { registered } }

    public static func named(_ name: String) -> (any Workload)? { all.first { $0.name == name } }

    /// Adds another package's workloads after the built-in ones. A name another workload has, a
    /// name a case id cannot carry, or a parameter set whose names or values a case id cannot
    /// carry (empty, or holding `/`, `,` or `=`; a name twice in one set) is refused, naming the
    /// workload and the set.
    public static func register(_ workloads: [any Workload]) throws(RegistrationError) {
        try lock.withLock { () throws(RegistrationError) in
            var known = builtIn + registered
            for workload in workloads {
                let type = "\(Swift.type(of: workload))"
                if let problem = RegistrationError.problem(withID: workload.name, reservingNone: false) {
                    throw .badID(id: workload.name, type: type, problem: problem)
                }
                if let other = known.first(where: { $0.name == workload.name }) {
                    throw .duplicate(id: workload.name, type: type, other: "\(Swift.type(of: other))")
                }
                for suite in Suite.allCases {
                    for parameters in workload.parameterSets(for: suite) {
                        if let problem = Self.problem(with: parameters) {
                            throw .badParameters(workload: workload.name, suite: suite.rawValue, problem: problem)
                        }
                    }
                }
                known.append(workload)
            }
            registered = Array(known.dropFirst(builtIn.count))
        }
    }

    /// Why a case id could not carry `parameters`, or nil.
    public static func problem(with parameters: [Parameter]) -> String? {
        var seen: Set<String> = []
        for parameter in parameters {
            for (part, text) in [("name", parameter.name), ("value", parameter.value)] {
                if text.isEmpty { return "a parameter \(part) is empty (\(parameter.name)=\(parameter.value))" }
                if let problem = RegistrationError.separatorProblem(in: text) {
                    return "parameter \(part) '\(text)' \(problem)"
                }
            }
            if !seen.insert(parameter.name).inserted { return "parameter '\(parameter.name)' is given twice" }
        }
        return nil
    }

    /// Every figure a workload measures itself, described (`Workload.figures`).
    public static var figures: [Metric] { all.flatMap(\.figures) }
}

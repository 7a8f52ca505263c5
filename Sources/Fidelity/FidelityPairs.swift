import Results

/// Which suite case each `direct` case references. The `direct` workload's `operation` parameter
/// names the operation; the suite case is the one of the same operation, backend and allocator in
/// its own family, with the parameters that make it that operation alone (one thread, empty
/// section, nothing between sections).
public enum FidelityPairs {
    public static let directWorkload = "direct"
    static let operationParameter = "operation"

    /// The pair `directCase` belongs to, or nil when it is not a `direct` case or names an
    /// operation without a counterpart.
    public static func pair(for directCase: BenchmarkCase) -> FidelityPair? {
        guard directCase.workload == directWorkload, let operation = directCase.parameter(operationParameter) else { return nil }
        let backend = directCase.backend
        func suite(_ workload: String, _ parameters: [(String, String)]) -> BenchmarkCase {
            BenchmarkCase(workload: workload, backend: backend, parameters: parameters.map { Parameter($0.0, $0.1) },
                          allocator: directCase.allocator)
        }
        /// queue-vs-lock with one thread and empty sections: the guard's own cost.
        func alone(_ guardName: String) -> BenchmarkCase {
            suite("queue-vs-lock", [("guard", guardName), ("threads", "1"), ("resource", "counter"), ("critical", "0ns"), ("outside", "0ns")])
        }
        let layer: DirectLayer = switch backend {
        case "libdispatch-c", BenchmarkCase.noBackend: .c
        case "libdispatch": .swift
        default: .concrete
        }
        func row(_ label: String, _ suiteCase: BenchmarkCase, unit: String, units: Int = 1, layer: DirectLayer = layer,
                 scheduled: Bool = false) -> FidelityPair {
            FidelityPair(operation: label, backend: backend, layer: layer, suiteCase: suiteCase, directCase: directCase,
                         unitsPerOperation: units, unit: unit, allocationsComparable: !scheduled)
        }
        switch operation {
        case "pthread-mutex": return row("pthread mutex lock + unlock", alone("pthread-mutex"), unit: "section")
        case "swift-mutex": return row("Mutex.withLock", alone("swift-mutex"), unit: "section", layer: .swift)
        case "posix-semaphore":
            return row("POSIX semaphore wait + post", suite("semaphore", [("pattern", "uncontended"), ("semaphore", "posix")]), unit: "pair")
        case "sync": return row("serial queue sync, empty section", alone("queue-sync"), unit: "section")
        case "async-drain": return row("async to a serial queue + drain", alone("queue-async"), unit: "block", scheduled: true)
        case "chain": return row("chained async", suite("spawn", [("pattern", "chain")]), unit: "link", scheduled: true)
        case "outside": return row("empty task from outside the pool", suite("spawn", [("pattern", "outside")]), unit: "task", scheduled: true)
        case "group-fan-out":
            return row("group fan-out + wait", suite("group", [("pattern", "fan-out")]), unit: "task", scheduled: true)
        case "pthread-create-join":
            return row("pthread_create + join", BenchmarkCase(workload: "thread-spawn", backend: backend, parameters: [], allocator: directCase.allocator),
                       unit: "thread")
        case "group-enter-leave": return row("group enter + leave", suite("group", [("pattern", "enter-leave")]), unit: "pair")
        case "semaphore":
            return row("semaphore wait + signal", suite("semaphore", [("pattern", "uncontended"), ("semaphore", "backend")]), unit: "pair")
        case "apply":
            guard let body = directCase.parameter("body"), let stride = directCase.parameter("stride"),
                  let text = directCase.parameter("iterations"), let iterations = Int(text), iterations >= 1 else { return nil }
            let suiteCase = suite("apply-stride", [("body", body), ("stride", stride), ("iterations", text)])
            return row("apply, body \(body), stride \(stride)", suiteCase, unit: "iteration", units: iterations, scheduled: true)
        default: return nil
        }
    }

    /// Every pair whose direct case is among `cases`, in their order.
    public static func pairs(in cases: [BenchmarkCase]) -> [FidelityPair] { cases.compactMap(pair(for:)) }
}

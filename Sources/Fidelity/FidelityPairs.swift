import CaseCatalogue
import Results

/// Which suite case each `direct` case references. The `direct` workload's `operation` parameter
/// names the operation; the suite case is the one of the same operation, backend and allocator in
/// its own family, with the parameters that make it that operation alone (one thread, empty
/// section, nothing between sections).
public enum FidelityPairs {
    public static let directWorkload = WorkloadName.direct.rawValue

    /// The pair `directCase` belongs to, or nil when it is not a `direct` case or names an
    /// operation without a counterpart.
    public static func pair(for directCase: BenchmarkCase) -> FidelityPair? {
        guard directCase.workload == directWorkload, let name = directCase.parameter(ParameterName.operation.rawValue),
            let operation = DirectOperation(rawValue: name)
        else { return nil }
        let backend = BackendName(directCase.backend)
        let layer: DirectLayer =
            switch backend {
            case .libdispatchC, .none: .c
            case .libdispatch: .swift
            default: .concrete
            }
        func row(
            _ label: String, _ spec: CaseSpec, unit: String, units: Int = 1, layer: DirectLayer = layer,
            scheduled: Bool = false
        ) -> FidelityPair {
            FidelityPair(
                operation: label, backend: backend.rawValue, layer: layer,
                suiteCase: spec.benchmarkCase(allocator: directCase.allocator),
                directCase: directCase, unitsPerOperation: units, unit: unit, allocationsComparable: !scheduled)
        }
        let asyncLayer = DirectLayer.executors
        /// queue-vs-lock with one thread and empty sections: the guard's own cost.
        func alone(_ guarding: QueueVsLockGuard) -> CaseSpec { .queueVsLock(guarding, on: backend, .uncontended) }
        // Exhaustive: a new operation must name its suite case here.
        switch operation {
        case .pthreadMutex: return row("pthread mutex lock + unlock", alone(.pthreadMutex), unit: "section")
        case .swiftMutex: return row("Mutex.withLock", alone(.swiftMutex), unit: "section", layer: .swift)
        case .posixSemaphore:
            return row("POSIX semaphore wait + post", .semaphore(.uncontended, .posix, on: backend), unit: "pair")
        case .sync: return row("serial queue sync, empty section", alone(.queueSync), unit: "section")
        case .asyncDrain:
            return row("async to a serial queue + drain", alone(.queueAsync), unit: "block", scheduled: true)
        case .chain: return row("chained async", .spawn(.chain, on: backend), unit: "link", scheduled: true)
        case .outside:
            return row("empty task from outside the pool", .spawn(.outside, on: backend), unit: "task", scheduled: true)
        case .groupFanOut:
            return row("group fan-out + wait", .group(.fanOut, on: backend), unit: "task", scheduled: true)
        case .threadSpawn: return row("pthread_create + join", CaseSpec(.threadSpawn, on: backend), unit: "thread")
        case .groupEnterLeave: return row("group enter + leave", .group(.enterLeave, on: backend), unit: "pair")
        case .semaphore:
            return row("semaphore wait + signal", .semaphore(.uncontended, .backend, on: backend), unit: "pair")
        case .actorCall:
            return row("actor call", .swiftAsync(.actorCall, on: backend), unit: "call", layer: asyncLayer)
        case .taskGroupChild:
            return row(
                "task group child, empty", .swiftAsync(.taskGroupChild, on: backend, [(.body, "0ns")]), unit: "child",
                layer: asyncLayer)
        case .task:
            return row("Task { }.value", .swiftAsync(.task, on: backend), unit: "task", layer: asyncLayer)
        case .apply:
            guard let body = directCase.parameter(ParameterName.body.rawValue),
                let stride = directCase.parameter(ParameterName.stride.rawValue),
                let text = directCase.parameter(ParameterName.iterations.rawValue), let iterations = Int(text),
                iterations >= 1
            else { return nil }
            return row(
                "apply, body \(body), stride \(stride)",
                .applyStride(body: body, stride: stride, on: backend, iterations: text),
                unit: "iteration", units: iterations, scheduled: true)
        }
    }

    /// Every pair whose direct case is among `cases`, in their order.
    public static func pairs(in cases: [BenchmarkCase]) -> [FidelityPair] { cases.compactMap(pair(for:)) }
}

import CaseCatalogue
import Backends
import Harness
import Results
import RuntimeKit

/// `queue-vs-lock`: one shared resource (`SharedResource`: a counter, or a small dictionary)
/// updated by several threads through one of seven guards (the `guard` parameter):
///
/// | guard | a critical section is | runs on |
/// | --- | --- | --- |
/// | `pthread-mutex` | `pthread_mutex_lock`, update, `unlock` | backend "none" |
/// | `swift-mutex` | `Mutex.withLock` (Synchronization) | "none" |
/// | `spin-lock` | a test-and-test-and-set lock with backoff (`SpinLock`) | "none" |
/// | `actor` | a call into an actor, from Swift tasks | "none" |
/// | `semaphore` | the backend's semaphore of value 1: wait, update, signal | every backend |
/// | `queue-sync` | `sync` on the backend's serial queue | every backend |
/// | `queue-async` | `async` on the backend's serial queue, drained at the end of each run | every backend |
///
/// Tests the guide's claims that "queue-based synchronization is more efficient than locks" and
/// that "locks always require an expensive kernel trap" (with the `syscalls` counter). One
/// operation is one critical section of any thread: ns per operation is the inverse of the
/// throughput of all threads together. `threads` threads (1, 2, 4 or `2xcpus`) each run
/// `critical` of spin inside every section and `outside` of spin between sections. Workload
/// metrics `fairness.min_share` and `fairness.max_share`: the least and most sections one
/// thread performed, as a fraction of a fair share (1 is perfectly fair).
///
/// Every run ends with the resource checked under its guard: the number of updates (and for the
/// dictionary, the sum of its entries) must equal the sections performed, so a guard that lets
/// two sections overlap, or a queue that loses or repeats a block, fails the case.
public struct QueueVsLock: Workload {
    /// How long a run waits for its participants before failing the case (see `Spawn.timeout`).
    public let timeout: Duration

    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.queueVsLock.rawValue
    public let summary =
        "one shared counter or dictionary guarded by locks, a semaphore, a serial queue (sync, async) or an actor"
    public let operation = "one critical section (of any thread)"
    public let usesBackend = true

    public typealias Guard = QueueVsLockGuard

    static let guardName = ParameterName.guard.rawValue
    /// The `threads` value that means twice the CPUs the child may use.
    static let twiceTheCPUs = ThreadCount.perCPU(2).description

    public func usesBackend(for parameters: [Parameter]) -> Bool {
        guard let text = parameters.first(where: { $0.name == Self.guardName })?.value, let kind = Guard(rawValue: text)
        else {
            return true  // prepare refuses it with the reason, on the first backend
        }
        return kind.fromBackend
    }

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        typealias Setting = (threads: String, resource: SharedResource.Kind, critical: Int, outside: Int)
        // Uncontended: one thread, empty sections, nothing between them: the guard's own cost.
        // Contended: 2 threads per CPU, short sections with ten times their length between them.
        let uncontended: Setting = ("1", .counter, 0, 0)
        let contended: Setting = (Self.twiceTheCPUs, .counter, 100, 1_000)
        let settings: [Setting]
        switch suite {
        case .smoke: return [Self.parameters(.queueSync, uncontended)]
        // Quick adds 2 threads updating as fast as they can, the question most often asked (a
        // counter shared by two threads), unless 2 is twice the CPUs.
        case .quick:
            settings = [uncontended] + (activeProcessorCount == 1 ? [] : [("2", .counter, 0, 0)]) + [contended]
        case .full:
            // 1, 2, 4 and 2 per CPU; a count equal to 2 per CPU is left out (on 2 CPUs, 4 would
            // measure the same thing twice).
            let counts = [1, 2, 4].filter { $0 != 2 * activeProcessorCount }.map(String.init) + [Self.twiceTheCPUs]
            settings =
                counts.flatMap { threads in
                    [(threads, .counter, 0, 0), (threads, .counter, 100, 1_000)]
                } + [("1", .dictionary, 100, 1_000), (Self.twiceTheCPUs, .dictionary, 100, 1_000)]
        }
        return settings.flatMap { setting in Guard.allCases.map { Self.parameters($0, setting) } }
    }

    static func parameters(
        _ kind: Guard, _ setting: (threads: String, resource: SharedResource.Kind, critical: Int, outside: Int)
    ) -> [Parameter] {
        [
            Parameter(guardName, kind.rawValue), Parameter(ParameterName.threads.rawValue, setting.threads),
            Parameter(ParameterName.resource.rawValue, setting.resource.rawValue),
            Parameter(ParameterName.critical.rawValue, BodyCost(nanoseconds: setting.critical).description),
            Parameter(ParameterName.outside.rawValue, BodyCost(nanoseconds: setting.outside).description),
        ]
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        func parameter(_ name: String, _ valid: String) throws(WorkloadError) -> String {
            guard let value = benchmarkCase.parameter(name) else {
                throw .badParameter("\(self.name) needs \(name)=<\(valid)>, got none")
            }
            return value
        }
        let kind: Guard = try benchmarkCase.choice(Self.guardName)
        let threads = try Self.threads(try parameter(ParameterName.threads.rawValue, "1|2|4|…|\(Self.twiceTheCPUs)"))
        let resourceKind: SharedResource.Kind = try benchmarkCase.choice(ParameterName.resource.rawValue)
        let critical = try Self.cost(
            try parameter(ParameterName.critical.rawValue, "<n>ns|<n>us"), named: ParameterName.critical.rawValue)
        let outside = try Self.cost(
            try parameter(ParameterName.outside.rawValue, "<n>ns|<n>us"), named: ParameterName.outside.rawValue)
        let resource = SharedResource(kind: resourceKind, criticalRounds: critical.spinRounds)
        return try Self.operation(
            kind, threads: threads, resource: resource, outsideRounds: outside.spinRounds,
            backend: kind.fromBackend ? backend : nil, timeout: timeout)
    }

    /// The operation of one guard. A backend's guard needs `backend`; generic below so the
    /// critical section is specialized per backend.
    static func operation(
        _ kind: Guard, threads: Int, resource: SharedResource, outsideRounds: UInt64,
        backend: Backend?, timeout: Duration
    ) throws -> any MeasuredOperation {
        func contending(_ resourceGuard: any ResourceGuard) -> QueueVsLockOperation {
            QueueVsLockOperation(
                ContendingThreads(
                    threads: threads, guarding: resourceGuard, outsideRounds: outsideRounds, timeout: timeout))
        }
        switch kind {
        case .pthreadMutex: return contending(PThreadMutexGuard(resource))
        case .swiftMutex: return contending(SwiftMutexGuard(resource))
        case .spinLock: return contending(SpinLockGuard(resource))
        case .actor:
            return QueueVsLockOperation(
                ActorContention(tasks: threads, resource: resource, outsideRounds: outsideRounds, timeout: timeout))
        case .semaphore, .queueSync, .queueAsync:
            guard let backend else {
                throw WorkloadError.badParameter(
                    "queue-vs-lock's guard=\(kind.rawValue) runs on a backend; none was given")
            }
            struct Make: RuntimeTypeConsumer {
                let kind: Guard, threads: Int, resource: SharedResource, outsideRounds: UInt64, timeout: Duration
                func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) -> QueueVsLockOperation {
                    QueueVsLock.operation(
                        kind, on: R(workers: 0), threads: threads, resource: resource,
                        outsideRounds: outsideRounds, timeout: timeout)
                }
            }
            return try backend.specialized(
                Make(kind: kind, threads: threads, resource: resource, outsideRounds: outsideRounds, timeout: timeout))
        }
    }

    /// A backend's guard on `runtime`, which the operation owns from now on (`finish()` shuts it
    /// down). Public to the tests, which hand it a runtime that misbehaves.
    static func operation<R: ConcurrencyRuntime>(
        _ kind: Guard, on runtime: R, threads: Int, resource: SharedResource,
        outsideRounds: UInt64, timeout: Duration
    ) -> QueueVsLockOperation {
        func contending(_ resourceGuard: any ResourceGuard) -> QueueVsLockOperation {
            QueueVsLockOperation(
                ContendingThreads(
                    threads: threads, guarding: resourceGuard, outsideRounds: outsideRounds, timeout: timeout),
                shutdown: runtime.shutdown)
        }
        switch kind {
        case .semaphore: return contending(SemaphoreGuard(resource, semaphore: runtime.makeSemaphore(value: 1)))
        case .queueAsync:
            return contending(QueueAsyncGuard(resource, queue: runtime.makeSerialQueue(label: "queue-vs-lock")))
        default: return contending(QueueSyncGuard(resource, queue: runtime.makeSerialQueue(label: "queue-vs-lock")))
        }
    }

    static func threads(_ text: String) throws(WorkloadError) -> Int {
        switch ThreadCount(text) {
        case .fixed(let count) where count <= 1_024: return count
        case .perCPU(2): return ThreadCount.perCPU(2).resolved(cpus: activeProcessorCount)
        default: throw .badParameter("queue-vs-lock needs threads=<1…1024> or threads=\(twiceTheCPUs), got '\(text)'")
        }
    }

    static func cost(_ text: String, named name: String) throws(WorkloadError) -> BodyCost {
        do {
            return try BodyCost(parsing: text)
        } catch {
            throw .badParameter("queue-vs-lock needs \(name)=<n>ns or <n>us (e.g. 0ns, 100ns, 1us), got '\(text)'")
        }
    }
}

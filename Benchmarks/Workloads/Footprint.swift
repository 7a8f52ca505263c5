import CaseCatalogue
import Backends
import Harness
import Results
import PThreadPrimitives
import RuntimeKit

/// `footprint`: what it costs in memory to have units of work waiting, the guide's "the threaded
/// model requires the creation of two threads, which take up both kernel and user-space memory.
/// Dispatch queues do not pay the same memory penalty". The `unit` parameter:
///
/// - `thread`: a unit is a pthread, started and parked on a semaphore until released; runs on
///   backend "none"
/// - `queued-block`: a unit is a block waiting in a backend's serial queue behind a `sync` the
///   measuring thread holds; runs on every backend
///
/// Once per process, before anything else runs (so no freed memory is there to be reused), it
/// holds `units` of them at once and reads the process's memory before and while they wait
/// (`ProcessMemory`): workload metrics `footprint.resident_bytes_per_unit` and
/// `footprint.virtual_bytes_per_unit`. Kernel memory (a thread's kernel stack and task) is not in
/// either and is not measured. The timed operation is then one unit created, held with the others
/// and released, so ns/op says what the footprint costs in time.
///
/// The queued blocks never block a worker: they wait in the queue because the measuring thread is
/// inside `sync` on it, so the pattern runs on swift-concurrency too.
public struct Footprint: Workload {
    public let timeout: Duration
    public init(timeout: Duration = Spawn.defaultTimeout) { self.timeout = timeout }

    public let name = WorkloadName.footprint.rawValue
    public let summary = "memory per waiting unit of work: a parked thread against a block queued on a serial queue"
    public let operation = "one unit created, held with the others, released"
    public let usesBackend = true

    public typealias Unit = FootprintUnit

    /// Units held at once: enough that a page's granularity (4 KiB) is a small error per unit for
    /// a block of about a hundred bytes, few enough that their stacks (8 MiB of address space
    /// each) fit any 64-bit process.
    public static let defaultUnits = 256

    public func usesBackend(for parameters: [Parameter]) -> Bool {
        parameters.first { $0.name == ParameterName.unit.rawValue }?.value != Unit.thread.rawValue
    }

    public func parameterSets(for suite: Suite) -> [[Parameter]] {
        suite == .smoke
            ? []
            : Unit.allCases.map {
                [Parameter(ParameterName.unit.rawValue, $0.rawValue), Parameter("units", "\(Self.defaultUnits)")]
            }
    }

    public func prepare(_ benchmarkCase: BenchmarkCase, backend: Backend?) throws -> any MeasuredOperation {
        let unit: Unit = try benchmarkCase.choice(ParameterName.unit.rawValue)
        let units = try benchmarkCase.integer("units", in: 1...4_096, default: Self.defaultUnits)
        switch unit {
        case .thread:
            return try FootprintOperation(units: units, holding: ParkedThreads(timeout: timeout))
        case .queuedBlock:
            guard let backend else {
                throw WorkloadError.badParameter("footprint with unit=queued-block runs on a backend; none was given")
            }
            struct Make: RuntimeTypeConsumer {
                let units: Int, timeout: Duration
                func callAsFunction<R: ConcurrencyRuntime>(_: R.Type) throws -> any MeasuredOperation {
                    try FootprintOperation(
                        units: units, holding: QueuedBlocks(runtime: R(workers: 0), timeout: timeout))
                }
            }
            return try backend.specialized(Make(units: units, timeout: timeout))
        }
    }
}

/// Holds `count` units at once, calls `whileHeld` while all of them wait, then releases them
/// and returns once every one has finished (or throws when one did not within the deadline).
protocol UnitHolder: AnyObject {
    func hold(_ count: Int, whileHeld: () -> Void) throws(WorkloadError)
    func close()
}

/// The footprint measured once, then timed holds of `units` units.
final class FootprintOperation: MeasuredOperation {
    private let units: Int
    private let holder: any UnitHolder
    private let figures: [String: WorkloadMetric]

    init(units: Int, holding holder: any UnitHolder) throws {
        self.units = units
        self.holder = holder
        guard let before = ProcessMemory.now() else {
            holder.close()
            throw WorkloadError.notApplicable("/proc/self/statm cannot be read, so the footprint cannot be measured")
        }
        var during: ProcessMemory?
        do {
            try holder.hold(units) { during = ProcessMemory.now() }
        } catch {
            holder.close()
            throw error
        }
        guard let during else {
            holder.close(); throw WorkloadError.notApplicable("/proc/self/statm became unreadable")
        }
        figures = [
            FigureName.residentBytesPerUnit.rawValue: WorkloadMetric(
                Double(during.residentBytes - before.residentBytes) / Double(units), unit: .bytes),
            "footprint.virtual_bytes_per_unit": WorkloadMetric(
                Double(during.virtualBytes - before.virtualBytes) / Double(units), unit: .bytes),
        ]
    }

    func run(_ count: Int) throws {
        var left = count
        while left > 0 {
            let now = min(left, units)
            try holder.hold(now) {}
            left -= now
        }
    }

    func finish() throws { holder.close() }

    var workloadMetrics: [String: WorkloadMetric] { figures }
}

/// Threads that start, say so, and park on a semaphore until released.
final class ParkedThreads: UnitHolder {
    private let timeout: Duration
    private let started = CountdownLatch()
    private let finished = CountdownLatch()
    private let release = MutexSemaphore(value: 0)

    init(timeout: Duration) { self.timeout = timeout }

    func hold(_ count: Int, whileHeld: () -> Void) throws(WorkloadError) {
        started.expect(count)
        finished.expect(count)
        let (started, finished, release) = (started, finished, release)
        let threads = (0..<count).map { _ in
            PThread.spawn {
                started.arrive()
                release.wait()
                finished.arrive()
            }
        }
        let allStarted = started.wait(timeout: timeout)
        if allStarted { whileHeld() }
        for _ in 0..<count { release.signal() }
        for thread in threads { thread.join() }
        guard allStarted else {
            throw .verificationFailed("\(started.outstanding) of \(count) threads had not started within \(timeout)")
        }
        guard finished.outstanding == 0 else {
            throw .verificationFailed("\(finished.outstanding) of \(count) threads did not finish")
        }
    }

    func close() {}
}

/// Blocks queued on one serial queue while the measuring thread holds it with `sync`.
final class QueuedBlocks<R: ConcurrencyRuntime>: UnitHolder {
    private let runtime: R
    private let queue: R.Queue
    private let timeout: Duration
    private let finished = CountdownLatch()
    private let block: @Sendable () -> Void

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        self.timeout = timeout
        queue = runtime.makeSerialQueue(label: "footprint")
        let finished = finished
        block = { finished.arrive() }
    }

    func hold(_ count: Int, whileHeld: () -> Void) throws(WorkloadError) {
        finished.expect(count)
        queue.sync {
            for _ in 0..<count { queue.async(block) }
            whileHeld()  // every block is queued behind this sync, none can run yet
        }
        guard finished.wait(timeout: timeout) else {
            throw .verificationFailed("\(finished.outstanding) of \(count) queued blocks did not run within \(timeout)")
        }
    }

    func close() { runtime.shutdown() }
}

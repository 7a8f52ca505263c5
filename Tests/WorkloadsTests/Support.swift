#if canImport(Glibc)
import Glibc
#endif
import Backends
import Harness
import Results
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing
import Workloads

/// The backends these tests run on: all registered ones, or those listed in
/// CONFORMANCE_BACKENDS (the variable that limits the conformance suite limits these too).
let workloadBackends: [Backend] = {
    guard let raw = getenv("CONFORMANCE_BACKENDS") else { return Backends.all }
    let ids = String(cString: raw).split(separator: ",").map { $0.filter { !$0.isWhitespace } }
    guard !ids.isEmpty else { return Backends.all }
    return Backends.all.filter { ids.contains($0.id) }
}()

/// Runs `operation` for each count in `counts`, then `finish()`, on a thread of its own (the
/// measuring thread blocks, which must never hold one of Swift Testing's cooperative threads:
/// the swift-concurrency backend runs on them). Returns the first error, or nil when all passed.
func exercise(
    _ makeOperation: @escaping @Sendable () throws -> any MeasuredOperation,
    counts: [Int]
) async throws -> WorkloadError? {
    try await onDedicatedThread { () -> WorkloadError? in
        let operation = try makeOperation()
        var first: WorkloadError?
        for count in counts {
            do { try operation.run(count) } catch let error as WorkloadError { first = first ?? error }
        }
        do { try operation.finish() } catch let error as WorkloadError { first = first ?? error }
        return first
    }
}

/// Like `exercise`, with a warm-up before `beginSamples()`: runs `warmUp` operations, starts the
/// samples, runs `sampled`, finishes, and returns the first error with the workload's own figures.
func exerciseSampled(
    _ makeOperation: @escaping @Sendable () throws -> any MeasuredOperation,
    warmUp: Int, sampled: Int
) async throws -> (error: WorkloadError?, metrics: [String: WorkloadMetric]) {
    let outcome = try await onDedicatedThread { () -> (error: WorkloadError?, metrics: [String: WorkloadMetric]) in
        let operation = try makeOperation()
        var first: WorkloadError?
        do {
            try operation.run(warmUp)
            operation.beginSamples()
            try operation.run(sampled)
        } catch let error as WorkloadError { first = error }
        do { try operation.finish() } catch let error as WorkloadError { first = first ?? error }
        return (first, operation.workloadMetrics)
    }
    let undescribed = Set(outcome.metrics.keys).subtracting(Workloads.figures.map(\.name))
    #expect(
        undescribed.isEmpty,
        "figures reported but not described by their workload (Workload.figures): \(undescribed.sorted())")
    return outcome
}

/// The message of a `verificationFailed`, or nil for anything else.
func verificationMessage(_ error: WorkloadError?) -> String? {
    if case .verificationFailed(let message) = error { return message }
    return nil
}

/// A runtime that misbehaves on purpose, to show that a workload's self-check catches it. Its
/// pool is pthread-mutex's (whose `shutdown` waits for queued blocks, so a test's verdict never
/// depends on a straggler); serial queues and `apply` come from `PoolBackedRuntime` on top of this
/// runtime's own `async`, so a lost submission reaches them too (a lost strand drain strands its
/// queue, as a lost block would on a real backend).
final class FaultyRuntime: PoolBackedRuntime, @unchecked Sendable {
    enum Fault: Sendable {
        case none
        /// The submission with this 0-based number is dropped: it never runs.
        case drop(submission: Int)
        /// The submission with this number is run twice.
        case duplicate(submission: Int)
        /// Every apply leaves this index out.
        case skip(index: Int)
        /// Every apply runs this index twice, one call after the other.
        case repeatIndex(Int)
        /// Every apply leaves out `index - 1` and `index + 1` and runs `index` three times: as
        /// many indices as a correct loop, with the same sum, so only a per-index check sees it.
        case cancellingMistakes(around: Int)
        /// The submission with this number, made with a group, never joins it and runs only when
        /// the next submission comes (or at shutdown): the group's wait returns before it has run,
        /// as a group that empties early would let it.
        case lateGroupMember(submission: Int)
    }

    static let id = "faulty"
    static let summary = "test-only: pthread-mutex's pool with one deliberate fault"

    let fault: Fault
    private let pool: any ConcurrencyRuntime
    private let submissions = Atomic<Int>(0)
    /// The block `.lateGroupMember` holds back, until the next submission or shutdown. Under a
    /// pthread mutex, not the standard library's `Mutex`, whose futex ThreadSanitizer cannot see
    /// (it reported two submitters releasing at once as a race).
    private let lateMemberLock = PThreadMutex()
    private var lateMember: (@Sendable () -> Void)?

    init(fault: Fault, workers: Int = 2) {
        self.fault = fault
        pool = Backends.named("pthread-mutex")!.runtime.init(workers: workers)
    }

    convenience init(workers: Int) { self.init(fault: .none, workers: workers) }

    var workers: Int { pool.workers }

    func async(_ work: @escaping @Sendable () -> Void) {
        releaseLateMember()
        let number = submissions.wrappingAdd(1, ordering: .relaxed).oldValue
        switch fault {
        case .drop(let dropped) where dropped == number:
            return
        case .duplicate(let twice) where twice == number:
            pool.async(work)
            pool.async(work)
        default:
            pool.async(work)
        }
    }

    /// The suite's timed loops call the C form, which `PoolBackedRuntime` would send straight to
    /// `ParallelLoop`: send it through the faulty pieces form below instead.
    func apply(iterations: Int, stride: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction) {
        apply(
            iterations: iterations, stride: stride,
            pieces: { range in piece(context, range.lowerBound, range.upperBound) })
    }

    @_disfavoredOverload
    func apply(iterations: Int, stride: StridePolicy, pieces body: (Range<Int>) -> Void) {
        let submit: (@escaping @Sendable () -> Void) -> Void = { self.async($0) }
        switch fault {
        case .skip(let skipped):
            ParallelLoop.run(iterations: iterations, stride: stride, workers: workers, submit: submit) { range in
                guard range.contains(skipped) else { return body(range) }
                // The piece without `skipped`: what comes before it, then what comes after.
                if range.lowerBound < skipped { body(range.lowerBound..<skipped) }
                if skipped + 1 < range.upperBound { body(skipped + 1..<range.upperBound) }
            }
        case .repeatIndex(let repeated):
            ParallelLoop.run(iterations: iterations, stride: stride, workers: workers, submit: submit) { range in
                guard range.contains(repeated) else { return body(range) }
                // Two calls that overlap at `repeated`: the first ends with it, the second starts there.
                body(range.lowerBound..<repeated + 1)
                body(repeated..<range.upperBound)
            }
        case .cancellingMistakes(let middle):
            ParallelLoop.run(iterations: iterations, stride: stride, workers: workers, submit: submit) { range in
                for index in range {
                    switch index {
                    case middle - 1, middle + 1: continue
                    case middle: for _ in 0..<3 { body(index..<index + 1) }
                    default: body(index..<index + 1)
                    }
                }
            }
        default:
            ParallelLoop.run(iterations: iterations, stride: stride, workers: workers, submit: submit, pieces: body)
        }
    }

    /// `ConcurrencyRuntime`'s own form (enter, submit, leave when done), except for the late member.
    func async(group: MutexGroup<Strand>, _ work: @escaping @Sendable () -> Void) {
        if case .lateGroupMember(let late) = fault {
            if submissions.compareExchange(expected: late, desired: late + 1, ordering: .relaxed).exchanged {
                lateMemberLock.withLock { lateMember = work }
                return
            }
        }
        group.enter()
        async {
            work()
            group.leave()
        }
    }

    private func releaseLateMember() {
        guard case .lateGroupMember = fault else { return }
        let late = lateMemberLock.withLock {
            defer { lateMember = nil }
            return lateMember
        }
        if let late { pool.async(late) }
    }

    func shutdown() {
        releaseLateMember()
        pool.shutdown()
    }
}

/// A semaphore that misbehaves on purpose (the mutex + condition one underneath), to show that
/// the semaphore patterns' self-checks catch it. Signals are numbered from 0 per semaphore.
final class FaultySemaphore: CountingSemaphore, @unchecked Sendable {
    enum Fault: Sendable {
        case none
        /// Starts with one permit more than asked: lets one holder too many in.
        case extraPermit
        /// The signal with this number does nothing.
        case loseSignal(number: Int)
        /// The signal with this number counts twice.
        case doubleSignal(number: Int)
    }

    private let semaphore: MutexSemaphore
    private let fault: Fault
    private let signals = Atomic<Int>(0)

    init(value: Int, fault: Fault) {
        self.fault = fault
        if case .extraPermit = fault {
            semaphore = MutexSemaphore(value: value + 1)
        } else {
            semaphore = MutexSemaphore(value: value)
        }
    }

    func wait() { semaphore.wait() }

    func wait(timeout: Duration) -> WaitResult { semaphore.wait(timeout: timeout) }

    @discardableResult
    func signal() -> Bool {
        let number = signals.wrappingAdd(1, ordering: .relaxed).oldValue
        switch fault {
        case .loseSignal(let lost) where lost == number:
            return false
        case .doubleSignal(let twice) where twice == number:
            semaphore.signal()
            return semaphore.signal()
        default:
            return semaphore.signal()
        }
    }
}

/// A mutex + condition semaphore that records the CPUs each waiting thread may run on (its
/// affinity mask), to show where a pattern pinned its threads. A look without waiting
/// (`timeout: .zero`: the measuring thread counting the permits left) is not recorded.
final class AffinityRecordingSemaphore: CountingSemaphore, @unchecked Sendable {
    /// The masks seen, shared by every semaphore of one supply. Under a pthread mutex, not the
    /// standard library's `Mutex`, whose futex ThreadSanitizer cannot see (it reported two sides
    /// recording at once as a race).
    final class Seen: @unchecked Sendable {
        private let lock = PThreadMutex()
        private var seen: Set<[Int]> = []

        func insert(_ mask: [Int]) { lock.withLock { _ = seen.insert(mask) } }
        var masks: Set<[Int]> { lock.withLock { seen } }
    }

    private let semaphore: MutexSemaphore
    private let seen: Seen

    init(value: Int, seen: Seen) {
        semaphore = MutexSemaphore(value: value)
        self.seen = seen
    }

    func wait() {
        record()
        semaphore.wait()
    }

    func wait(timeout: Duration) -> WaitResult {
        if timeout > .zero { record() }
        return semaphore.wait(timeout: timeout)
    }

    @discardableResult
    func signal() -> Bool { semaphore.signal() }

    private func record() {
        let mask = UsableCPUs.affinityOfCallingThread()
        seen.insert(mask)
    }
}

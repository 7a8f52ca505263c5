import CaseCatalogue
import Dispatch
import Harness
import Results
import RuntimeKit
import Synchronization

/// A `direct` reference in idiomatic Swift over the `Dispatch` overlay, as an app would write it:
/// `DispatchQueue.sync { }`, a closure per `async`, `concurrentPerform` with the loop over a
/// stride inside it. Next to `libdispatch-c`'s C reference it shows what the overlay itself costs;
/// next to the `libdispatch` backend's figure, what the suite's protocol path adds on top.
final class DispatchDirectOperation: MeasuredOperation, @unchecked Sendable {
    private let operation: Direct.Operation
    private let loop: DirectLoop?
    /// What the operations count, behind a pointer: a class `var` would add Swift's exclusivity
    /// check to every access, which the C reference does not pay.
    private let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    private var performed = 0
    private let queue = DispatchQueue(label: "direct")
    private let group = DispatchGroup()
    private let semaphore = DispatchSemaphore(value: 1)
    private let done = DispatchSemaphore(value: 0)
    private let linksLeft = Atomic<Int>(0)
    /// Tasks of `outside` and `group-fan-out` that ran.
    private let arrived = Atomic<Int>(0)
    private var link: (@Sendable () -> Void)?
    private let body: SpinPieces?
    private let idle: IdleThread?
    private var claimedWakeUps = 0
    /// Fan-out: group waits that returned before their round's tasks were all counted.
    private var earlyWaits = 0

    init(_ operation: Direct.Operation, loop: DirectLoop?) {
        self.operation = operation
        self.loop = loop
        counter.initialize(to: 0)
        body = loop.map { SpinPieces(spinRounds: $0.spinRounds, iterations: $0.iterations) }
        idle = operation == .semaphore ? IdleThread() : nil
        link = { [unowned self] in step() }
    }

    deinit { counter.deallocate() }

    /// An `outside` task: counts itself; the last of the run wakes the measuring thread
    /// (acquiring and releasing: every task's count reaches the one that signals).
    private func arrive() {
        arrived.wrappingAdd(1, ordering: .relaxed)
        if linksLeft.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() }
    }

    private func step() {
        counter.pointee &+= 1
        // relaxed: consecutive links are ordered by the submission between them.
        if linksLeft.wrappingSubtract(1, ordering: .relaxed).newValue > 0 {
            DispatchQueue.global().async(execute: link!)
        } else {
            done.signal()
        }
    }

    func run(_ count: Int) throws {
        let counter = counter
        switch operation {
        case .sync:
            for _ in 0..<count { queue.sync { counter.pointee &+= 1 } }
        case .asyncDrain:
            let shared = UncheckedPointer(counter)
            for _ in 0..<count { queue.async { shared.pointer.pointee &+= 1 } }
            queue.sync {}
        case .chain:
            guard count > 0 else { break }
            linksLeft.store(count, ordering: .relaxed)
            DispatchQueue.global().async(execute: link!)
            done.wait()
        case .outside:
            guard count > 0 else { break }
            linksLeft.store(count, ordering: .relaxed)
            for _ in 0..<count { DispatchQueue.global().async { [unowned self] in arrive() } }
            done.wait()
        case .groupFanOut:
            // Each wait's round checked against the tally, as the workload and Go's program check it.
            let width = 2 * activeProcessorCount
            var submitted = performed
            for wave in Swift.stride(from: count, to: 0, by: -width) {
                let members = min(width, wave)
                for _ in 0..<members {
                    DispatchQueue.global().async(group: group) { [unowned self] in
                        arrived.wrappingAdd(1, ordering: .relaxed)
                    }
                }
                submitted += members
                group.wait()
                if arrived.load(ordering: .relaxed) < submitted { earlyWaits += 1 }
            }
        case .groupEnterLeave:
            for _ in 0..<count {
                group.enter()
                group.leave()
            }
        case .semaphore:
            for _ in 0..<count {
                semaphore.wait()
                if semaphore.signal() != 0 { claimedWakeUps += 1 }
            }
        case .apply:
            let loop = loop!, body = body!
            let stride = loop.stride(workers: activeProcessorCount), pieces = (loop.iterations + stride - 1) / stride
            for _ in 0..<count where pieces > 0 {
                DispatchQueue.concurrentPerform(iterations: pieces) { piece in
                    let lower = piece * stride
                    body.run(lower..<min(lower + stride, loop.iterations))
                }
            }
        case .pthreadMutex, .posixSemaphore, .swiftMutex, .threadSpawn:
            throw WorkloadError.notApplicable("\(operation.rawValue) needs no backend")
        case .actorCall, .taskGroupChild, .task:
            throw WorkloadError.notApplicable("\(operation.rawValue) is written by `AsyncDirectOperation`")
        }
        performed += count
        try check()
    }

    func finish() throws {
        idle?.stop()
        link = nil
        try check()
    }

    private func check() throws {
        switch operation {
        case .sync, .asyncDrain, .chain:
            guard counter.pointee == performed else {
                throw WorkloadError.verificationFailed("\(counter.pointee) operations ran, \(performed) were performed")
            }
        case .outside, .groupFanOut:
            guard earlyWaits == 0 else {
                throw WorkloadError.verificationFailed(
                    "\(earlyWaits) group waits returned before their round's tasks had all run")
            }
            let ran = arrived.load(ordering: .relaxed)
            guard ran == performed else {
                throw WorkloadError.verificationFailed("\(ran) tasks ran, \(performed) were submitted")
            }
        case .groupEnterLeave:
            guard group.wait(timeout: .now()) == .success else {
                throw WorkloadError.verificationFailed("after \(performed) enter + leave pairs the group is not empty")
            }
        case .semaphore:
            guard claimedWakeUps == 0 else {
                throw WorkloadError.verificationFailed(
                    "\(claimedWakeUps) signals claimed to wake a waiter, with none waiting")
            }
        case .apply:
            try body!.tally.completed(
                performed - body!.tally.loops,
                loop: "concurrentPerform over \(loop!.iterations) iterations, stride \(loop!.stride)")
        case .pthreadMutex, .posixSemaphore, .swiftMutex, .threadSpawn, .actorCall, .taskGroupChild, .task:
            break
        }
    }
}

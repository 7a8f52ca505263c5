import CaseCatalogue
import CBodyCost
import CReferences
import Glibc
import Harness
import Results
import RuntimeKit

/// A `direct` reference written in C (Benchmarks/CReferences): pthreads, POSIX semaphores and
/// libdispatch's `_f` entry points, called from C loops. The run's cheap check (`rb_direct_verify`)
/// follows every run, so every timed operation is checked.
final class CDirectOperation: MeasuredOperation {
    private let direct: OpaquePointer
    private let idle: IdleThread?

    init(_ operation: Direct.Operation, loop: DirectLoop?) throws {
        let kind: rb_direct_kind
        switch operation {
        case .pthreadMutex: kind = RB_DIRECT_PTHREAD_MUTEX
        case .swiftMutex: throw WorkloadError.notApplicable("Swift's Mutex has no C form")
        case .posixSemaphore: kind = RB_DIRECT_POSIX_SEMAPHORE
        case .sync: kind = RB_DIRECT_DISPATCH_SYNC
        case .asyncDrain: kind = RB_DIRECT_DISPATCH_ASYNC_DRAIN
        case .chain: kind = RB_DIRECT_DISPATCH_CHAIN
        case .outside: kind = RB_DIRECT_DISPATCH_OUTSIDE
        case .groupFanOut: kind = RB_DIRECT_DISPATCH_GROUP_FAN_OUT
        case .threadSpawn: kind = RB_DIRECT_PTHREAD_CREATE_JOIN
        case .groupEnterLeave: kind = RB_DIRECT_DISPATCH_GROUP_ENTER_LEAVE
        case .semaphore: kind = RB_DIRECT_DISPATCH_SEMAPHORE
        case .apply: kind = RB_DIRECT_DISPATCH_APPLY
        case .actorCall, .taskGroupChild, .task:
            throw WorkloadError.notApplicable("async operations have no C form (`AsyncDirectOperation` writes them)")
        }
        let stride = loop?.stride(workers: activeProcessorCount) ?? 1
        // Fan-out's round is as wide as the suite's: two tasks per worker (libdispatch-c's workers
        // are the active CPUs).
        let iterations = operation == .groupFanOut ? 2 * activeProcessorCount : loop?.iterations ?? 0
        guard
            let direct = rb_direct_create(
                kind, iterations, stride, loop?.spinRounds ?? rb_spin_rounds())
        else {
            throw WorkloadError.notApplicable(
                "the C reference could not be set up: \(String(cString: strerror(errno)))")
        }
        self.direct = direct
        // The suite's uncontended semaphore cases keep an idle thread; so does their reference.
        idle = [.posixSemaphore, .semaphore].contains(operation) ? IdleThread() : nil
    }

    deinit { rb_direct_destroy(direct) }

    func run(_ count: Int) throws {
        rb_direct_run(direct, count)
        try check()
    }

    func finish() throws {
        idle?.stop()
        try check()
    }

    private func check() throws {
        var reason = [CChar](repeating: 0, count: 256)
        if rb_direct_verify(direct, &reason, UInt(reason.count)) != 0 {
            throw WorkloadError.verificationFailed(
                String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}

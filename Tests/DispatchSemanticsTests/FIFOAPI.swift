import FIFODispatch
import RuntimeKit

/// DispatchAPI over FIFODispatch.
final class FIFOAPI: DispatchAPI, @unchecked Sendable {
    let runtime: FIFODispatch
    var description: String { "fifo-dispatch" }

    init(workers: Int) { runtime = FIFODispatch(workers: workers) }

    var workers: Int { runtime.workers }

    private func q(_ handle: Handle) -> FIFOQueue { handle as! FIFOQueue }

    func makeQueue(_ label: String, concurrent: Bool, qos: Priority?, target: Handle?) -> Handle {
        runtime.makeQueue(label: label, concurrent: concurrent, qos: qos, target: target.map(q))
    }
    func global(_ priority: Priority) -> Handle { runtime.global(priority) }
    var mainQueue: Handle { runtime.mainQueue }
    func label(of queue: Handle) -> String { q(queue).label }
    func currentLabel() -> String? { FIFOQueue.currentLabel }

    func async(_ queue: Handle, qos: Priority?, group: Handle?, _ work: @escaping @Sendable () -> Void) {
        if let group {
            q(queue).async(group: group as! FIFOGroup, qos: qos, work)
        } else if let qos {
            q(queue).async(qos: qos, work)
        } else {
            q(queue).async(work)
        }
    }
    func asyncBarrier(_ queue: Handle, _ work: @escaping @Sendable () -> Void) { q(queue).asyncBarrier(work) }
    func sync(_ queue: Handle, _ work: () -> Void) { q(queue).sync(work) }
    func syncBarrier(_ queue: Handle, _ work: () -> Void) { q(queue).syncBarrier(work) }
    func suspend(_ queue: Handle) { q(queue).suspend() }
    func resume(_ queue: Handle) { q(queue).resume() }
    func setTarget(_ queue: Handle, _ target: Handle) { q(queue).setTarget(q(target)) }

    func makeQueue(
        _ label: String, context: UnsafeMutableRawPointer?,
        finalizer: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void
    ) -> (queue: Handle, release: @Sendable () -> Void) {
        final class Holder: @unchecked Sendable { var queue: FIFOQueue?; init(_ q: FIFOQueue) { queue = q } }
        let queue = runtime.makeQueue(label: label)
        queue.context = context
        queue.setFinalizer { finalizer($0) }
        let holder = Holder(queue)
        return (queue, { holder.queue = nil })
    }
    func setContext(_ queue: Handle, _ context: UnsafeMutableRawPointer?) { q(queue).context = context }

    func apply(on queue: Handle, iterations: Int, stride: StridePolicy, _ body: (Int) -> Void) {
        q(queue).apply(iterations: iterations, stride: stride, body)
    }

    func makeSemaphore(_ value: Int) -> Handle { runtime.makeSemaphore(value: value) }
    func wait(_ semaphore: Handle, timeout: Duration?) -> WaitResult {
        let s = semaphore as! FIFOSemaphore
        guard let timeout else { s.wait(); return .success }
        return s.wait(timeout: timeout)
    }
    func signal(_ semaphore: Handle) -> Bool { (semaphore as! FIFOSemaphore).signal() }

    func makeGroup() -> Handle { runtime.makeGroup() }
    func enter(_ group: Handle) { (group as! FIFOGroup).enter() }
    func leave(_ group: Handle) { (group as! FIFOGroup).leave() }
    func wait(group: Handle, timeout: Duration?) -> WaitResult {
        let g = group as! FIFOGroup
        guard let timeout else { g.wait(); return .success }
        return g.wait(timeout: timeout)
    }
    func wait(group: Handle, wallClockTimeout: Duration) -> WaitResult {
        (group as! FIFOGroup).wait(until: .wallClock(after: wallClockTimeout))
    }
    func notify(_ group: Handle, on queue: Handle, _ work: @escaping @Sendable () -> Void) {
        (group as! FIFOGroup).notify(on: q(queue), work)
    }

    func dispatchMain() -> Never { runtime.dispatchMain() }
    /// Serves the main queue on the caller for `duration`.
    func drainMainQueue(for duration: Duration) { runtime.drainMainQueue(for: duration) }

    func shutdown() { runtime.shutdown() }
}

import CDispatch
import CDispatchShim
import FIFODispatch
import RuntimeKit

/// DispatchAPI over the real libdispatch's C API: the oracle.
final class LibdispatchAPI: DispatchAPI, @unchecked Sendable {
    var description: String { "libdispatch" }
    var workers: Int { activeProcessorCount }

    /// A dispatch object the test owns one reference to.
    final class Object: @unchecked Sendable {
        let pointer: OpaquePointer
        let owned: Bool
        let label: String
        init(_ pointer: OpaquePointer, owned: Bool, label: String = "") {
            self.pointer = pointer
            self.owned = owned
            self.label = label
        }
        deinit { if owned { rb_dispatch_release(UnsafeMutableRawPointer(pointer)) } }
        var raw: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }
    }

    private func o(_ handle: Handle) -> Object { handle as! Object }
    private func queue(_ handle: Handle) -> dispatch_queue_t { o(handle).pointer }

    /// QOS_CLASS_* values (the same on Linux as on Darwin).
    static func qosClass(_ priority: Priority) -> UInt32 {
        switch priority {
        case .high: 0x19  // user-initiated
        case .default: 0x15
        case .low: 0x11  // utility
        case .background: 0x09
        }
    }

    static func globalPriority(_ priority: Priority) -> Int {
        switch priority {
        case .high: 2
        case .default: 0
        case .low: -2
        case .background: Int(Int16.min)
        }
    }

    func makeQueue(_ label: String, concurrent: Bool, qos: Priority?, target: Handle?) -> Handle {
        var attribute: UnsafeMutableRawPointer? = concurrent ? rb_dispatch_concurrent_attribute() : nil
        if let qos { attribute = rb_dispatch_attribute_with_qos(attribute, Self.qosClass(qos)) }
        let created = dispatch_queue_create(label, attribute.map { OpaquePointer($0) })
        if let target { rb_dispatch_set_target_queue(UnsafeMutableRawPointer(created), o(target).raw) }
        return Object(created, owned: true, label: label)
    }

    func global(_ priority: Priority) -> Handle {
        Object(dispatch_get_global_queue(Self.globalPriority(priority), 0), owned: false)
    }

    var mainQueue: Handle { Object(OpaquePointer(rb_dispatch_main_queue()), owned: false) }

    func label(of handle: Handle) -> String {
        String(cString: dispatch_queue_get_label(queue(handle)))
    }

    func currentLabel() -> String? {
        String(cString: dispatch_queue_get_label(nil))
    }

    func async(_ handle: Handle, qos: Priority?, group: Handle?, _ work: @escaping @Sendable () -> Void) {
        if let qos {
            // What Swift's DispatchQueue.async(qos:) does: a block carrying the QoS class.
            let block = dispatch_block_create_with_qos_class(
                dispatch_block_flags_t(0), dispatch_qos_class_t(Self.qosClass(qos)), 0, work)
            if let group {
                dispatch_group_async(o(group).pointer, queue(handle), block)
            } else {
                dispatch_async(queue(handle), block)
            }
            return
        }
        let context = Box.retain(work)
        if let group {
            dispatch_group_async_f(o(group).pointer, queue(handle), context, Box.runAndRelease)
        } else {
            dispatch_async_f(queue(handle), context, Box.runAndRelease)
        }
    }

    func asyncBarrier(_ handle: Handle, _ work: @escaping @Sendable () -> Void) {
        dispatch_barrier_async_f(queue(handle), Box.retain(work), Box.runAndRelease)
    }

    func sync(_ handle: Handle, _ work: () -> Void) {
        withoutActuallyEscaping(work) { work in
            var call = work
            withUnsafeMutablePointer(to: &call) { pointer in
                dispatch_sync_f(queue(handle), pointer) { $0!.assumingMemoryBound(to: (() -> Void).self).pointee() }
            }
        }
    }

    func syncBarrier(_ handle: Handle, _ work: () -> Void) {
        withoutActuallyEscaping(work) { work in
            var call = work
            withUnsafeMutablePointer(to: &call) { pointer in
                dispatch_barrier_sync_f(queue(handle), pointer) {
                    $0!.assumingMemoryBound(to: (() -> Void).self).pointee()
                }
            }
        }
    }

    func suspend(_ handle: Handle) { rb_dispatch_suspend(o(handle).raw) }
    func resume(_ handle: Handle) { rb_dispatch_resume(o(handle).raw) }
    func setTarget(_ handle: Handle, _ target: Handle) { rb_dispatch_set_target_queue(o(handle).raw, o(target).raw) }

    func makeQueue(
        _ label: String, context: UnsafeMutableRawPointer?,
        finalizer: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void
    ) -> (queue: Handle, release: @Sendable () -> Void) {
        let created = dispatch_queue_create(label, nil)
        rb_dispatch_set_context(UnsafeMutableRawPointer(created), context)
        rb_dispatch_set_finalizer(UnsafeMutableRawPointer(created), finalizer)
        // The test's handle does not own a reference: `release` drops the only one.
        let handle = Object(created, owned: false, label: label)
        let raw = UInt(bitPattern: UnsafeMutableRawPointer(created))
        return (handle, { rb_dispatch_release(UnsafeMutableRawPointer(bitPattern: raw)!) })
    }
    func setContext(_ handle: Handle, _ context: UnsafeMutableRawPointer?) {
        rb_dispatch_set_context(o(handle).raw, context)
    }

    func apply(on handle: Handle, iterations: Int, stride: StridePolicy, _ body: (Int) -> Void) {
        let plan = ApplyPlan(iterations: iterations, stride: stride, workers: workers)
        guard plan.pieces > 0 else { return }
        withoutActuallyEscaping(body) { body in
            var loop = (plan: plan, body: body)
            withUnsafeMutablePointer(to: &loop) { pointer in
                dispatch_apply_f(plan.pieces, queue(handle), pointer) { context, piece in
                    let loop = context!.assumingMemoryBound(to: (plan: ApplyPlan, body: (Int) -> Void).self).pointee
                    for index in loop.plan.indices(ofPiece: piece) { loop.body(index) }
                }
            }
        }
    }

    func makeSemaphore(_ value: Int) -> Handle { Object(dispatch_semaphore_create(value), owned: true) }
    func wait(_ semaphore: Handle, timeout: Duration?) -> WaitResult {
        let deadline =
            timeout.map { dispatch_time(DISPATCH_TIME_NOW, $0.nanosecondsSaturating) } ?? DISPATCH_TIME_FOREVER
        return dispatch_semaphore_wait(o(semaphore).pointer, deadline) == 0 ? .success : .timedOut
    }
    func signal(_ semaphore: Handle) -> Bool { dispatch_semaphore_signal(o(semaphore).pointer) != 0 }

    func makeGroup() -> Handle { Object(dispatch_group_create(), owned: true) }
    func enter(_ group: Handle) { dispatch_group_enter(o(group).pointer) }
    func leave(_ group: Handle) { dispatch_group_leave(o(group).pointer) }
    func wait(group: Handle, timeout: Duration?) -> WaitResult {
        let deadline =
            timeout.map { dispatch_time(DISPATCH_TIME_NOW, $0.nanosecondsSaturating) } ?? DISPATCH_TIME_FOREVER
        return dispatch_group_wait(o(group).pointer, deadline) == 0 ? .success : .timedOut
    }
    func wait(group: Handle, wallClockTimeout: Duration) -> WaitResult {
        let deadline = dispatch_walltime(nil, wallClockTimeout.nanosecondsSaturating)
        return dispatch_group_wait(o(group).pointer, deadline) == 0 ? .success : .timedOut
    }
    func notify(_ group: Handle, on handle: Handle, _ work: @escaping @Sendable () -> Void) {
        dispatch_group_notify_f(o(group).pointer, queue(handle), Box.retain(work), Box.runAndRelease)
    }

    func dispatchMain() -> Never { CDispatch.dispatch_main() }

    func shutdown() {}

    enum Box {
        final class Work {
            let work: @Sendable () -> Void; init(_ work: @escaping @Sendable () -> Void) { self.work = work }
        }
        static func retain(_ work: @escaping @Sendable () -> Void) -> UnsafeMutableRawPointer {
            Unmanaged.passRetained(Work(work)).toOpaque()
        }
        static let runAndRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().work()
        }
    }
}

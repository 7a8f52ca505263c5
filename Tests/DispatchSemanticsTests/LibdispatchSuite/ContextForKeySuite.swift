#if canImport(Glibc)
import Glibc
#endif
import FIFODispatch
import PThreadPrimitives
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_context_for_key.c, in part: its application context and finalizer. A
    /// queue with a context and a finalizer targets a concurrent queue that targets the global
    /// queue; blocks on it run, the last reference goes, and the finalizer runs once with the
    /// context. The keyed contexts (`dispatch_queue_set_specific`, `dispatch_get_specific`) and
    /// their destructors have no counterpart in DispatchAPI and are left out.
    @Suite("dispatch_context_for_key.c: the application context and finalizer, through a concurrent target")
    struct ContextForKeySuite {
        @Test(
            "a queue under a concurrent target is finalized once, with its context, after its blocks",
            arguments: Implementation.underTest)
        func finalizedThroughConcurrentTarget(_ implementation: Implementation) {
            with(implementation) { api in
                let callsBefore = FinalizerLog.calls.load(ordering: .sequentiallyConsistent)
                let context = UnsafeMutablePointer<Int>.allocate(capacity: 1)
                context.initialize(to: 0)
                defer { context.deallocate() }
                let target = api.makeQueue("tq", concurrent: true, qos: nil, target: api.global(.default))
                let gate = Latch(), address = UInt(bitPattern: context)
                let release: @Sendable () -> Void
                do {
                    let made = api.makeQueue(
                        "q", context: UnsafeMutableRawPointer(context), finalizer: FinalizerLog.recordCount)
                    release = made.release
                    api.setTarget(made.queue, target)
                    api.async(made.queue) { gate.wait() }
                    // The queue is serial: its blocks count in the context one at a time.
                    for _ in 0..<10 {
                        api.async(made.queue) { UnsafeMutablePointer<Int>(bitPattern: address)!.pointee += 1 }
                    }
                }
                release()
                usleep(20_000)
                #expect(
                    FinalizerLog.calls.load(ordering: .sequentiallyConsistent) == callsBefore,
                    "finalized while blocks were still queued")
                gate.open()
                #expect(
                    eventually { FinalizerLog.calls.load(ordering: .sequentiallyConsistent) > callsBefore },
                    "the finalizer never ran")
                usleep(20_000)
                #expect(
                    FinalizerLog.calls.load(ordering: .sequentiallyConsistent) == callsBefore + 1,
                    "the finalizer ran more than once")
                #expect(FinalizerLog.lastContext.load(ordering: .sequentiallyConsistent) == address)
                #expect(
                    FinalizerLog.countSeen.load(ordering: .sequentiallyConsistent) == 10,
                    "the finalizer ran before all of the queue's blocks had")
            }
        }
    }
}

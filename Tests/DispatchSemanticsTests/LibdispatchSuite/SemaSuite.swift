import FIFODispatch
import Synchronization
import Testing

extension LibdispatchSuite {
    /// tests/dispatch_sema.c: a semaphore created with 1 is a lock. Every iteration of a 10,000
    /// iteration apply on the global queue increments an unguarded total inside wait/signal.
    @Suite("dispatch_sema.c: a semaphore of 1 as a lock")
    struct SemaSuite {
        @Test(
            "10,000 apply iterations increment a total under a semaphore of 1: none lost, never two inside",
            arguments: Implementation.underTest)
        func semaphoreAsLock(_ implementation: Implementation) {
            with(implementation) { api in
                final class Total: @unchecked Sendable { var value = 0 }  // guarded by the semaphore only
                let laps = 10_000, semaphore = api.makeSemaphore(1), total = Total(), meter = ConcurrencyMeter()
                api.apply(on: api.global(.default), iterations: laps, stride: .fixed(1)) { _ in
                    _ = api.wait(semaphore, timeout: nil)
                    meter.measure { total.value += 1 }
                    api.signal(semaphore)
                }
                #expect(total.value == laps)
                #expect(meter.maximum == 1, "\(meter.maximum) iterations held a semaphore of 1 at once")
            }
        }
    }
}

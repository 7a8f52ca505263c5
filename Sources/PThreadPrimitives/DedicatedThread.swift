/// Runs `body` on a new pthread and suspends the caller until it returns, without holding one of
/// Swift's cooperative threads meanwhile. Long blocking work called from async code (a stress
/// test, a benchmark run) must go through this: the cooperative pool has one thread per CPU,
/// and every thread held by blocking code is one that tasks elsewhere (timers, child-process
/// monitors, the swift-concurrency backend) cannot use. CI's TSan run caught exactly that.
public func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        PThread.spawn { continuation.resume(with: Result { try body() }) }.detach()
    }
}

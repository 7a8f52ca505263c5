import RuntimeKit

/// A runtime that brings only a pool (`async`) and takes the rest from this module: serial queues
/// as strands on that pool, the mutex + condition semaphore and group, and `ParallelLoop` for
/// apply. Conforming is the whole job for pthread-mutex and swift-concurrency; a backend with
/// better parts of its own (libdispatch, work-stealing with its helping group and join-based
/// apply, FIFODispatch) does not conform.
public protocol PoolBackedRuntime: ConcurrencyRuntime
where Queue == Strand, Semaphore == MutexSemaphore, Group == MutexGroup<Strand> {}

extension PoolBackedRuntime {
    public func makeSerialQueue(label: String) -> Strand {
        Strand(label: label) { [self] drain in async(drain) }
    }

    public func makeSemaphore(value: Int) -> MutexSemaphore { MutexSemaphore(value: value) }

    public func makeGroup() -> MutexGroup<Strand> { MutexGroup() }

    @_disfavoredOverload
    public func apply(iterations: Int, stride: StridePolicy, pieces body: (Range<Int>) -> Void) {
        ParallelLoop.run(
            iterations: iterations, stride: stride, workers: workers, submit: { self.async($0) }, pieces: body)
    }

    public func apply(iterations: Int, stride: StridePolicy, context: UnsafeMutableRawPointer?, _ piece: PieceFunction)
    {
        ParallelLoop.run(
            iterations: iterations, stride: stride, workers: workers, submit: { self.async($0) }, context: context,
            piece)
    }
}

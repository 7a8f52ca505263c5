import Harness
import Results
import RuntimeKit
import Synchronization

/// `spawn`, pattern `chain`: the measuring thread submits the first link; every link takes one
/// from `linksLeft` and submits the next with `runtime.async` from inside the pool, the last one
/// wakes the measuring thread. One operation is one link.
///
/// A link is a `FunctionBlock` made once: libdispatch-c submits it with `dispatch_async_f` and
/// nothing boxed (a closure would cost a box per link, more than the link itself); the other
/// backends submit its closure, a retain per link.
final class SpawnChain<R: ConcurrencyRuntime>: MeasuredOperation {
    private let runtime: R
    private let completion: SpawnCompletion
    private let links: ChainLinks<R>

    init(runtime: R, timeout: Duration) {
        self.runtime = runtime
        completion = SpawnCompletion(units: "links of a chain", timeout: timeout)
        links = ChainLinks(runtime: runtime, latch: completion.latch)
    }

    func run(_ count: Int) throws {
        try completion.run(
            count, arrivals: 1,
            submit: {
                links.linksLeft.wrappingAdd(count, ordering: .relaxed)
                runtime.async(links.block)
            }, done: { count - links.linksLeft.load(ordering: .relaxed) })
    }

    func finish() throws {
        runtime.shutdown()
        try completion.verify([(links.linksLeft.load(ordering: .relaxed), "links left to run")])
        links.cut()  // only now: after a failure a stray link may still be running and need it
    }
}

/// A chain's link and what it reaches: a C function cannot be formed in generic code, so the link
/// calls `step` here and the override (`ChainLinks`, `DirectChain`) does the rest.
///
/// The link reaches the object through a cell of raw memory, not a reference, so both of its
/// forms are trivial values and `block` is a constant made once: a link then submits the next
/// without retaining or releasing anything of ours (a `var` block would be copied, closure and
/// all, by every link: a retain and a release from both CPUs). The cell owns the object from the
/// end of `init` until `cut()`.
///
/// `@unchecked Sendable`: the cell is written in `init`, before any link can run, and in `cut()`,
/// once every link is known to have run.
class ChainStep: @unchecked Sendable {
    private let cell: UnsafeMutablePointer<Unmanaged<ChainStep>?>
    /// The link, submitted again by every link but the last.
    let block: FunctionBlock

    /// A subclass initializes its own properties first: the cell then takes the whole object.
    init() {
        let cell = UnsafeMutablePointer<Unmanaged<ChainStep>?>.allocate(capacity: 1)
        cell.initialize(to: nil)
        self.cell = cell
        let shared = UncheckedPointer(cell)
        block = FunctionBlock(
            context: UnsafeMutableRawPointer(cell), Self.function,
            closure: { shared.pointer.pointee?._withUnsafeGuaranteedRef { $0.step() } })
        cell.pointee = Unmanaged.passRetained(self)
    }

    deinit { cell.deallocate() }

    func step() { preconditionFailure("ChainStep.step is overridden by ChainLinks and DirectChain") }

    /// Lets this object go: a link that still runs afterwards (only a wrong backend's) finds the
    /// cell empty and does nothing.
    func cut() {
        let owner = cell.pointee
        cell.pointee = nil
        owner?.release()
    }

    /// A link's C function. Its context is the cell (nil once cut).
    /// `_withUnsafeGuaranteedRef`: the cell owns the object while links run, so the call needs no
    /// retain and release of its own, which every link would pay from whichever CPU ran it, the
    /// object's count bouncing between the CPUs (Benchmarks/README.md, "What the references
    /// found").
    private static let function: WorkFunction = { context in
        context.unsafelyUnwrapped.assumingMemoryBound(to: Unmanaged<ChainStep>?.self).pointee?._withUnsafeGuaranteedRef
        { $0.step() }
    }
}

/// The state the suite's chain shares: what is left to run, and the latch the last link opens.
///
/// `@unchecked Sendable`: as `ChainStep`; the rest is immutable or atomic.
final class ChainLinks<R: ConcurrencyRuntime>: ChainStep, @unchecked Sendable {
    private let runtime: R
    /// Links still to run in this `run`. A read-modify-write, not a load and a store, so a chain
    /// that a wrong backend forks in two still counts down to zero and stops (each half then
    /// arrives, one arrival too many, which `finish()` reports).
    let linksLeft = Atomic<Int>(0)
    private let latch: CountdownLatch

    init(runtime: R, latch: CountdownLatch) {
        self.runtime = runtime
        self.latch = latch
        super.init()
    }

    override func step() {
        // relaxed: consecutive links are ordered by the submission between them; the latch
        // publishes the last one to the measuring thread.
        if linksLeft.wrappingSubtract(1, ordering: .relaxed).newValue > 0 {
            runtime.async(block)
        } else {
            latch.arrive()
        }
    }
}

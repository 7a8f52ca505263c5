/// A scheduling event one of our own backends counts about itself (`RuntimeEvents` in
/// PThreadPrimitives counts them; the `events.` metrics report them per operation). The raw
/// values index a slot's counts (CThreadSlots.h holds RB_SLOT_KINDS of them).
public enum RuntimeEvent: Int, CaseIterable, Sendable {
    /// work-stealing: a batch taken from another worker's deque.
    case steals
    /// work-stealing: jobs those batches moved (the batch sizes, summed).
    case stolenJobs
    /// work-stealing: a look at the injector and every other deque that found nothing.
    case failedSteals
    /// work-stealing: a batch taken from the injector (submissions from outside the pool).
    case injectorBatches
    /// Both: a worker went to sleep (a futex wait) with nothing to do.
    case parks
    /// work-stealing: a join whose right half was offered to thieves, then taken back and run by
    /// the joiner itself. A lazy join that offered nothing (its deque held enough already) is not
    /// counted: on that path of a few nanoseconds even a plain increment is a measurable share
    /// (Sources/StealingRuntime/README.md, "Events").
    case joinsInline
    /// work-stealing: a join whose right half another worker stole.
    case joinsStolen
    /// fifo-dispatch: a `sync` that could not run at once on the caller (the queue was busy, or
    /// not a root's direct child) and took the slow path: polled until the queue fell idle,
    /// waited in line, or was handed the queue. Every other sync was fast; fast ones are not
    /// counted, since counting them is a measurable share of the fast path
    /// (Sources/FIFODispatch/README.md, "Events").
    case syncSlow
    /// fifo-dispatch: a queue drained by a worker (one pass over its list).
    case drains
    /// fifo-dispatch: a spare worker started because every worker was blocked, in one of its own
    /// waits or (found by its stall monitor) in one it cannot see.
    case spareWorkers
    /// Both: a block's memory (fifo-dispatch's task node, work-stealing's heap job for an `async`)
    /// taken from a thread's cache instead of allocated.
    case nodesReused
    /// Both: a task node or heap job allocated because the thread's cache was empty.
    case nodesAllocated
    /// Both: a sleeping worker woken (the waker's futex wake).
    case wakeUps
    /// fifo-dispatch: an idle worker that found a chain's lone blocks taken by another worker as
    /// they came slept a short while instead of searching on (Sources/FIFODispatch/README.md,
    /// "Naps").
    case naps
    /// fifo-dispatch: an actor job run by the worker whose job hopped to it, without its queue's
    /// list (Sources/FIFODispatch/README.md, "Actor jobs handed off").
    case handOffs
    /// Both: a waiter (a group or semaphore wait, a `sync` on a busy queue or strand) polled for
    /// its whole `SpinBudget` without the wait ending, and went to sleep in the kernel.
    case waitsSlept
    /// Both: a thread of the backend gave up its CPU (`sched_yield`) while it polled or searched.
    /// One that let another thread run is a context switch; one with nobody waiting for the CPU
    /// costs a system call only.
    case yields
    /// Both: a semaphore waiter whose signaller ran on its CPU for 256 waits in a row moved
    /// itself to another CPU (`LastSignaller.sharesThisCPU`).
    case cpuMoves

    /// The metric's name: "events.steals".
    public var metricName: String { "events." + name }

    public var name: String {
        switch self {
        case .steals: "steals"
        case .stolenJobs: "stolen-jobs"
        case .failedSteals: "failed-steals"
        case .injectorBatches: "injector-batches"
        case .parks: "parks"
        case .joinsInline: "joins-inline"
        case .joinsStolen: "joins-stolen"
        case .syncSlow: "sync-slow"
        case .drains: "drains"
        case .spareWorkers: "spare-workers"
        case .nodesReused: "nodes-reused"
        case .nodesAllocated: "nodes-allocated"
        case .wakeUps: "wake-ups"
        case .naps: "naps"
        case .handOffs: "hand-offs"
        case .waitsSlept: "waits-slept"
        case .yields: "yields"
        case .cpuMoves: "cpu-moves"
        }
    }

    /// The backends (their `id`s) that count this event.
    public var countedBy: [String] {
        switch self {
        case .steals, .stolenJobs, .failedSteals, .injectorBatches, .joinsInline, .joinsStolen: ["work-stealing"]
        case .syncSlow, .drains, .spareWorkers, .naps, .handOffs: ["fifo-dispatch"]
        case .parks, .wakeUps, .nodesReused, .nodesAllocated, .waitsSlept, .yields, .cpuMoves:
            ["work-stealing", "fifo-dispatch"]
        }
    }

    /// How many events there are: what a reader's buffer holds (allCases builds an array).
    public static let count = allCases.count

    /// Every backend that counts events of its own.
    public static let countingBackends = ["work-stealing", "fifo-dispatch"]
}

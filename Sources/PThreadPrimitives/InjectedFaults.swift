import CSpinHint
#if canImport(Glibc)
import Glibc
#endif

/// Faults that slow real runtime paths, so the regression gate's power can be measured where
/// regressions really happen (Sources/Gate/README.md, "Detection on real paths"): every
/// fifo-dispatch `sync`, every work-stealing steal attempt, every fifo-dispatch task (one heap
/// allocation more), every semaphore or group wait's spin budget.
///
/// Only a build with the `FaultInjection` trait has the hooks (`swift build -c release --traits
/// FaultInjection`): a normal build checks nothing on those paths. Such a build reads
/// RUNTIMEBENCH_FAULTS once, e.g. `fifo-sync=2ns,steal=50ns,task-allocation=1,semaphore-spin=0.5`,
/// and the same binary with and without the variable is the A and B of `bench ab`, as
/// RUNTIMEBENCH_SPIN_SLOWDOWN is for the spin workload.
public struct InjectedFaults: Sendable, Equatable {
    /// The paths a fault can slow.
    public enum Path: String, Sendable, CaseIterable {
        /// Busy work added to every fifo-dispatch `sync` (its fast path too), in ns.
        case fifoSync = "fifo-sync"
        /// Busy work added to every work-stealing steal attempt, in ns.
        case steal
        /// Heap allocations (64 bytes, freed at once) added to every fifo-dispatch task.
        case taskAllocation = "task-allocation"
        /// A factor on the spin budget of every semaphore and group wait (0: sleep at once).
        case semaphoreSpin = "semaphore-spin"
    }

    public static let variable = "RUNTIMEBENCH_FAULTS"

    public var fifoSyncNanoseconds: Double = 0
    public var stealNanoseconds: Double = 0
    public var taskAllocations = 0
    public var semaphoreSpinFactor = 1.0

    public init() {}

    /// No fault: what a build without the variable runs.
    public var isEmpty: Bool { self == InjectedFaults() }

    /// Parses "path=value,…": a delay as "2ns" (or a bare number of ns), an allocation count as
    /// a whole number, the spin factor as a number from 0 to 100.
    public static func parse(_ text: String) throws(Malformed) -> InjectedFaults {
        var faults = InjectedFaults()
        for item in text.split(separator: ",").map({
            String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        })
        where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let path = Path(rawValue: parts[0]) else {
                throw Malformed(
                    text: text,
                    reason: "'\(item)' is not path=value; the paths: "
                        + Path.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let value = parts[1].hasSuffix("ns") ? String(parts[1].dropLast(2)) : parts[1]
            guard let number = Double(value), number.isFinite, number >= 0 else {
                throw Malformed(text: text, reason: "'\(parts[1])' for \(path.rawValue) is not a number of 0 or more")
            }
            switch path {
            case .fifoSync: faults.fifoSyncNanoseconds = number
            case .steal: faults.stealNanoseconds = number
            case .taskAllocation:
                guard number == number.rounded(), number <= 1_000 else {
                    throw Malformed(
                        text: text,
                        reason: "task-allocation is a whole number of allocations up to 1000, not \(parts[1])")
                }
                faults.taskAllocations = Int(number)
            case .semaphoreSpin:
                guard number <= 100 else {
                    throw Malformed(text: text, reason: "semaphore-spin is a factor up to 100, not \(parts[1])")
                }
                faults.semaphoreSpinFactor = number
            }
        }
        return faults
    }

    public struct Malformed: Error, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String { "\(InjectedFaults.variable)=\(text): \(reason)" }
    }

    /// "fifo-sync=2ns, task-allocation=1": what a run records of its faults.
    public var description: String {
        var parts: [String] = []
        if fifoSyncNanoseconds > 0 { parts.append("fifo-sync=\(fifoSyncNanoseconds)ns") }
        if stealNanoseconds > 0 { parts.append("steal=\(stealNanoseconds)ns") }
        if taskAllocations > 0 { parts.append("task-allocation=\(taskAllocations)") }
        if semaphoreSpinFactor != 1 { parts.append("semaphore-spin=\(semaphoreSpinFactor)") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// Whether this build has the hooks.
    public static var compiledIn: Bool {
        #if FaultInjection
        true
        #else
        false
        #endif
    }

    /// The variable's faults in this build: none without the trait or the variable. A malformed
    /// variable stops the process with the reason, before anything is measured.
    public static let active: InjectedFaults = {
        guard compiledIn, let text = getenv(variable).map({ String(cString: $0) }) else { return InjectedFaults() }
        do { return try parse(text) } catch { fatalError("\(error)") }
    }()

    /// Delay-loop turns per nanosecond on this machine, measured once (20 ms) when a delay is asked for.
    static let turnsPerNanosecond: Double = {
        let turns: UInt64 = 20_000_000
        let start = MonotonicInstant.now
        rb_fault_delay(turns)
        return Double(turns) / Double(max(1, MonotonicInstant.now.nanoseconds - start.nanoseconds))
    }()

    /// The turns that take `nanoseconds`.
    static func turns(_ nanoseconds: Double) -> UInt64 {
        nanoseconds > 0 ? UInt64((nanoseconds * turnsPerNanosecond).rounded()) : 0
    }

    @usableFromInline static let fifoSyncTurns = turns(active.fifoSyncNanoseconds)
    @usableFromInline static let stealTurns = turns(active.stealNanoseconds)
    @usableFromInline static let taskAllocationCount = active.taskAllocations
    @usableFromInline static let spinFactor = active.semaphoreSpinFactor

    /// The hooks, called from the paths under `#if FaultInjection`.
    @inlinable public static func delayFIFOSync() { if fifoSyncTurns > 0 { rb_fault_delay(fifoSyncTurns) } }
    @inlinable public static func delaySteal() { if stealTurns > 0 { rb_fault_delay(stealTurns) } }
    @inlinable public static func allocateForTask() { for _ in 0..<taskAllocationCount { rb_fault_allocation() } }
    @inlinable public static func spinBudget(_ rounds: Int) -> Int {
        spinFactor == 1 ? rounds : Int((Double(rounds) * spinFactor).rounded())
    }
}

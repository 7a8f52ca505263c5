import Results
import RuntimeKit
#if canImport(Glibc)
import Glibc
#endif

/// Pins this process to a set of CPUs (`sched_setaffinity`), before the runtime creates any
/// thread: threads inherit the mask, so a pinned case's workers stay on those CPUs too. Pinning
/// cuts migrations and cross-core noise at the price of realism; it is opt-in (`--cpus`).
public enum CPUAffinity {
    /// Parses "0,2-3" into [0, 2, 3].
    public static func parse(_ text: String) throws(PlanError) -> [Int] {
        var cpus: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            switch bounds.count {
            case 1 where bounds[0] != nil:
                cpus.append(bounds[0]!)
            case 2 where bounds[0] != nil && bounds[1] != nil && bounds[0]! <= bounds[1]!:
                cpus += Array(bounds[0]!...bounds[1]!)
            default:
                throw .invalid("--cpus '\(text)': '\(part)' is not a CPU number or a range like 2-3")
            }
        }
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let bad = cpus.first(where: { $0 < 0 || $0 >= online }) {
            throw .invalid("--cpus '\(text)': CPU \(bad) does not exist (this machine has CPUs 0-\(online - 1))")
        }
        return Array(Set(cpus)).sorted()
    }

    /// Restricts the calling process to `cpus`.
    public static func pin(to cpus: [Int]) throws(FileError) {
        guard UsableCPUs.setAffinityOfCallingThread(cpus) == 0 else {
            throw FileError(path: "sched_setaffinity", operation: "pin to CPUs \(cpus) with", errno: errno)
        }
    }

    /// The CPUs this process may run on now.
    public static func current() -> [Int] { UsableCPUs.affinityOfCallingThread() }
}

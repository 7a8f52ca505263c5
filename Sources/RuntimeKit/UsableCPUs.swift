#if canImport(Glibc)
import Glibc
#endif

/// The CPUs this process may really use: its affinity mask (`taskset`, `--cpus`) and its
/// cgroup's CPU quota (a container's `--cpus`), which the count of online CPUs ignores. What
/// `workers: 0` resolves to, and part of a machine's identity in a results file.
public struct UsableCPUs: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The CPUs the calling thread may run on (new threads inherit it), ascending.
    public let affinity: [Int]
    /// CPUs' worth of time per period the cgroup allows (cpu.max: quota over period), or nil
    /// when no quota applies or none could be read.
    public let quota: Double?

    public init(affinity: [Int], quota: Double?) {
        self.affinity = affinity
        self.quota = quota
    }

    /// How many threads can run at once: the affinity's CPUs, fewer when the quota allows less
    /// (rounded up: 1.5 CPUs of quota lets two threads run, each part of the time). At least 1.
    public var count: Int {
        let allowed = quota.map { Int($0.rounded(.up)) } ?? Int.max
        return max(1, min(affinity.isEmpty ? Int.max : affinity.count, allowed, onlineCPUs))
    }

    /// "CPUs 0-1", "CPU 0, cgroup quota 1.5 CPUs".
    public var description: String {
        let cpus = (affinity.count == 1 ? "CPU " : "CPUs ") + Self.ranges(affinity)
        return quota.map { cpus + ", cgroup quota \(Self.format($0)) CPUs" } ?? cpus
    }

    /// The calling thread's now.
    public static func ofThisProcess() -> UsableCPUs {
        UsableCPUs(affinity: affinityOfCallingThread(), quota: cgroupQuota())
    }

    /// Restricted to `cpus` (what `--cpus` pins each child to), the quota unchanged.
    public func pinned(to cpus: [Int]) -> UsableCPUs {
        UsableCPUs(affinity: affinity.isEmpty ? cpus : cpus.filter(affinity.contains), quota: quota)
    }

    private var onlineCPUs: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// "0-3,6".
    static func ranges(_ cpus: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < cpus.count {
            var end = index
            while end + 1 < cpus.count && cpus[end + 1] == cpus[end] + 1 { end += 1 }
            parts.append(end == index ? "\(cpus[index])" : "\(cpus[index])-\(cpus[end])")
            index = end + 1
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ",")
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 100).rounded() / 100)
    }

    // MARK: reading

    /// The calling thread's affinity mask (sched_getaffinity), ascending; empty when unreadable.
    public static func affinityOfCallingThread() -> [Int] {
        var set = cpu_set_t()
        guard affinityCall("sched_getaffinity", &set) == 0 else { return [] }
        return withUnsafeBytes(of: &set) { bytes in
            (0..<(bytes.count * 8)).filter { bytes[$0 / 8] & (UInt8(1) << UInt8($0 % 8)) != 0 }
        }
    }

    /// Restricts the calling thread (and the threads it creates from then on) to `cpus`
    /// (sched_setaffinity); CPU numbers beyond the mask are ignored. Returns 0, or -1 with errno set.
    @discardableResult
    public static func setAffinityOfCallingThread(_ cpus: [Int]) -> Int32 {
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { bytes in
            for cpu in cpus where cpu >= 0 && cpu / 8 < bytes.count {
                bytes[cpu / 8] |= UInt8(1) << UInt8(cpu % 8)  // CPU_SET: bit `cpu` of the mask, little-endian words
            }
        }
        return affinityCall("sched_setaffinity", &set)
    }

    /// `sched_setaffinity` / `sched_getaffinity` are GNU extensions the Glibc module does not
    /// export (they need _GNU_SOURCE); both are ordinary glibc symbols with the signature
    /// `int (pid_t pid, size_t size, cpu_set_t *mask)`, so they are looked up by name. pid 0 is
    /// the calling thread, whose mask new threads inherit. Returns -1 with errno set on failure.
    public static func affinityCall(_ name: String, _ set: inout cpu_set_t) -> Int32 {
        typealias Signature = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {  // RTLD_DEFAULT
            errno = ENOSYS
            return -1
        }
        let function = unsafeBitCast(symbol, to: Signature.self)
        return withUnsafeMutableBytes(of: &set) { function(0, $0.count, $0.baseAddress!) }
    }

    /// The smallest quota on this process's cgroup and its ancestors (cgroup v2's cpu.max, or
    /// v1's cfs_quota_us over cfs_period_us), in CPUs; nil when none applies.
    static func cgroupQuota() -> Double? {
        guard let membership = firstLines("/proc/self/cgroup") else { return nil }
        var quotas: [Double] = []
        for line in membership {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { continue }
            if fields[0] == "0" && fields[1].isEmpty {  // v2
                for directory in ancestors(fields[2]) {
                    if let text = firstLines("/sys/fs/cgroup\(directory)/cpu.max")?.first,
                        let quota = quota(cpuMax: text)
                    {
                        quotas.append(quota)
                    }
                }
            } else if fields[1].split(separator: ",").contains("cpu") {  // v1
                for directory in ancestors(fields[2]) {
                    let base = "/sys/fs/cgroup/\(fields[1])\(directory)"
                    if let quota = firstLines(base + "/cpu.cfs_quota_us")?.first.flatMap({ Double($0) }),
                        let period = firstLines(base + "/cpu.cfs_period_us")?.first.flatMap({ Double($0) }), quota > 0,
                        period > 0
                    {
                        quotas.append(quota / period)
                    }
                }
            }
        }
        return quotas.min()
    }

    /// cgroup v2's cpu.max: "max 100000" (no quota) or "150000 100000" (1.5 CPUs).
    static func quota(cpuMax text: String) -> Double? {
        let fields = text.split(separator: " ")
        guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), quota > 0, period > 0
        else { return nil }
        return quota / period
    }

    /// "/a/b" → ["/a/b", "/a", ""]: a directory and its ancestors up to the hierarchy's root.
    static func ancestors(_ path: String) -> [String] {
        var parts = path.split(separator: "/").map(String.init)
        var result: [String] = []
        while true {
            result.append(parts.isEmpty ? "" : "/" + parts.joined(separator: "/"))
            if parts.isEmpty { return result }
            parts.removeLast()
        }
    }

    private static func firstLines(_ path: String) -> [String]? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while lines.count < 64, fgets(&buffer, Int32(buffer.count), file) != nil {
            lines.append(
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .trimmingSuffix(while: { $0 == "\n" }))
        }
        return lines
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var result = self
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }
}

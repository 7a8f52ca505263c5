#if canImport(Glibc)
import Glibc
#endif
import RuntimeKit

/// The machine a run was measured on, captured once per run and stored with the results, so a
/// number is never read apart from the conditions that produced it. A fact that cannot be read
/// is recorded as "unavailable: <reason>", never guessed.
public struct RunEnvironment: Sendable, Codable, Equatable {
    public let cpuModel: String
    public let onlineCPUs: Int
    public let kernel: String
    /// "yes (hypervisor flag in /proc/cpuinfo)" / "no" — a VM usually has no PMU and noisier timing.
    public let virtualMachine: String
    public let cpuGovernor: String
    public let perfEventParanoid: String
    public let swiftCompiler: String
    /// The commit `bench` was built from (40 hex digits), or "unavailable: <why>".
    public let gitCommit: String
    public let hostname: String
    /// `bench`'s version (its VERSION file at build time); nil in files written before it was recorded.
    public let benchVersion: String?
    /// Whether tracked files differed from `gitCommit` when `bench` was built: the figures then
    /// belong to that commit plus changes no one can see. nil in files written before it was recorded.
    public let uncommittedChanges: Bool?
    /// The CPUs the children could use: the parent's affinity and cgroup quota, narrowed to
    /// `--cpus` when the run pinned them. nil in files written before it was recorded.
    public var usableCPUs: UsableCPUs?

    /// How many CPUs the children could use at once: what a per-CPU thread count ("2xcpus")
    /// resolved to in them. Online CPUs for files written before usable CPUs were recorded, when
    /// the children resolved to that.
    public var cpusAtOnce: Int { usableCPUs?.count ?? onlineCPUs }

    public static func capture(gitCommit: String, benchVersion: String? = nil, uncommittedChanges: Bool? = nil)
        -> RunEnvironment
    {
        var name = utsname()
        uname(&name)
        return RunEnvironment(
            cpuModel: SystemFacts.cpuinfo("model name") ?? "unavailable: no 'model name' in /proc/cpuinfo",
            onlineCPUs: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
            kernel: "\(field(&name.sysname)) \(field(&name.release)) \(field(&name.machine))",
            virtualMachine: Self.virtualMachine(),
            cpuGovernor: SystemFacts.firstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
                ?? "unavailable: no cpufreq in /sys (common on VMs: the host sets the frequency)",
            perfEventParanoid: SystemFacts.firstLine("/proc/sys/kernel/perf_event_paranoid")
                ?? "unavailable: /proc/sys/kernel/perf_event_paranoid not readable",
            swiftCompiler: compilerVersion,
            gitCommit: gitCommit,
            hostname: field(&name.nodename),
            benchVersion: benchVersion,
            uncommittedChanges: uncommittedChanges,
            usableCPUs: UsableCPUs.ofThisProcess()
        )
    }

    private static func virtualMachine() -> String {
        guard let flags = SystemFacts.cpuinfo("flags") else { return "unavailable: no 'flags' in /proc/cpuinfo" }
        return flags.split(separator: " ").contains("hypervisor") ? "yes (hypervisor flag in /proc/cpuinfo)" : "no"
    }

    /// The compiler that built this binary (what was measured), not whatever `swift` is on PATH.
    private static var compilerVersion: String {
        #if compiler(>=6.4)
        "Swift 6.4 or later"
        #elseif compiler(>=6.3)
        "Swift 6.3"
        #elseif compiler(>=6.2)
        "Swift 6.2"
        #else
        "Swift 6.1 or earlier"
        #endif
    }
}

/// A C string field of `utsname` as a Swift string.
private func field<T>(_ tuple: inout T) -> String {
    withUnsafeBytes(of: &tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// How busy the machine was with things other than the run, between two readings: the CPU time
/// the hypervisor gave to other guests (steal) and the CPU time of processes other than this one
/// and its children, each as a share of the machine's CPU time. Either one slows some processes
/// of a run and not others, which the report's first screen says beside its figures.
public struct MachineLoad: Sendable, Codable, Equatable {
    /// Steal time over all CPU time, in percent; nil where /proc/stat has no steal column.
    public let stealPercent: Double?
    /// CPU time used by other processes over all CPU time, in percent.
    public let otherProcessesPercent: Double
    /// Wall-clock seconds between the readings.
    public let seconds: Double

    public init(stealPercent: Double?, otherProcessesPercent: Double, seconds: Double) {
        self.stealPercent = stealPercent
        self.otherProcessesPercent = otherProcessesPercent
        self.seconds = seconds
    }

    /// One reading: the machine's CPU time by kind (from /proc/stat) and this process's and its
    /// waited-for children's CPU time (from getrusage).
    public struct Reading: Sendable {
        let machineTicks: Double
        let busyTicks: Double
        let stealTicks: Double?
        let ownSeconds: Double
        let instant: ContinuousClock.Instant

        /// Nil where /proc/stat cannot be read (not Linux).
        public static func now() -> Reading? {
            guard let line = firstLine(of: "/proc/stat"), line.hasPrefix("cpu ") else { return nil }
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            // user nice system idle iowait irq softirq steal guest guest_nice; guest time is
            // already counted in user and nice.
            guard fields.count >= 4 else { return nil }
            let total = fields.prefix(8).reduce(0, +)
            let idle = fields[3] + (fields.count > 4 ? fields[4] : 0)
            let steal = fields.count > 7 ? fields[7] : nil
            return Reading(
                machineTicks: total, busyTicks: total - idle - (steal ?? 0), stealTicks: steal,
                ownSeconds: rusageSeconds(RUSAGE_SELF.rawValue) + rusageSeconds(RUSAGE_CHILDREN.rawValue), instant: .now
            )
        }
    }

    /// The load between two readings, or nil when no time passed.
    public init?(from start: Reading, to end: Reading) {
        let ticks = end.machineTicks - start.machineTicks
        let elapsed = (end.instant - start.instant).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        guard ticks > 0, seconds > 0 else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let busy = (end.busyTicks - start.busyTicks) / ticksPerSecond
        let own = end.ownSeconds - start.ownSeconds
        let capacity = ticks / ticksPerSecond
        var steal: Double?
        if let before = start.stealTicks, let after = end.stealTicks { steal = (after - before) / ticks * 100 }
        self.init(
            stealPercent: steal,
            otherProcessesPercent: Swift.max(0, busy - own) / capacity * 100, seconds: seconds)
    }

    private static func rusageSeconds(_ who: __rusage_who_t) -> Double {
        var usage = rusage()
        guard getrusage(who, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import Results
/// The number of threads in this process now (the `Threads:` line of /proc/self/status), or
/// nil where that file does not exist. Workloads whose cost depends on the process's shape use
/// it to refuse a condition they cannot produce instead of measuring another one.
public func processThreadCount() -> Int? {
    SystemFacts.read("/proc/self/status")?.split(whereSeparator: \.isNewline)
        .first { $0.hasPrefix("Threads:") }
        .flatMap { Int($0.dropFirst("Threads:".count).trimmed) }
}

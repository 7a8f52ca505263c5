import Results

/// queue-vs-lock's parameters besides the guard: how many threads, what they guard, and the work
/// inside and between their sections. The two settings the claims and the fidelity pairs cite.
public struct QueueVsLockSetting: Sendable, Hashable {
    public let threads: ThreadCount
    public let resource: String
    public let critical: String
    public let outside: String

    public init(threads: ThreadCount, resource: String, critical: String, outside: String) {
        (self.threads, self.resource, self.critical, self.outside) = (threads, resource, critical, outside)
    }

    /// One thread, an empty section, nothing between sections: the guard's own cost.
    public static let uncontended = QueueVsLockSetting(
        threads: .fixed(1), resource: "counter", critical: "0ns", outside: "0ns")
    /// Two threads updating as fast as they can: empty sections, nothing between them.
    public static let pair = QueueVsLockSetting(
        threads: .fixed(2), resource: "counter", critical: "0ns", outside: "0ns")
    /// Two threads per CPU, 100 ns sections 1 µs apart.
    public static let contended = QueueVsLockSetting(
        threads: .perCPU(2), resource: "counter", critical: "100ns", outside: "1us")

    /// In the order queue-vs-lock writes them, after `guard`.
    var parameters: [(ParameterName, String)] {
        [(.threads, threads.description), (.resource, resource), (.critical, critical), (.outside, outside)]
    }
}

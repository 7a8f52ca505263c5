import CThreadInfo
import Results

/// The time the process's threads spent runnable but waiting for a CPU (the kernel's run delay,
/// /proc/self/task/TID/schedstat), summed over its threads. Divided by the time per operation it
/// is how many threads waited for a CPU on average: how far a case oversubscribes the machine,
/// which context switches alone do not say (README.md, "Run delay"). Available wherever the
/// kernel keeps schedstat; no PMU, no privilege.
public final class RunDelayCounters: CounterSource {
    public let id = "schedstat"
    public static let metricName = "sched.run-delay"
    public static let catalogue = [
        Metric(
            metricName, unit: .nanoseconds, kind: .event, heading: "waiting for a CPU ns/op",
            note: "time the process's threads were runnable but waiting for a CPU, summed over its threads")
    ]

    public let availability: [String: Availability]
    public let metrics: [String]

    public init() {
        if rb_process_run_delay_ns() >= 0 {
            availability = [Self.metricName: .available]
            metrics = [Self.metricName]
        } else {
            availability = [
                Self.metricName: .unavailable(
                    reason:
                        "no /proc/self/task/*/schedstat: a kernel built without CONFIG_SCHED_INFO, or /proc not mounted"
                )
            ]
            metrics = []
        }
    }

    public func read(into slots: UnsafeMutableBufferPointer<Double>) {
        guard !slots.isEmpty else { return }
        let delay = rb_process_run_delay_ns()
        slots[0] = delay < 0 ? .nan : Double(delay)
    }
}

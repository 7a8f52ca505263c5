import Backends
import Harness
import Results
import Testing
import Workloads

/// group: every pattern passes on every backend, reusing one group for the whole case; a task
/// the runtime loses fails fan-out and notify by their deadline with what was lost, and the
/// operation stays failed. Counts and messages decide, never timings.
@Suite("group: fan-out, notify and enter-leave verify themselves and never hang")
struct GroupTests {
    /// For tests where a task is lost on purpose: the wait is certain to time out.
    static let lostTaskTimeout: Duration = .milliseconds(500)
    /// For backends that lose nothing: spawn's, for the same reason (the cooperative pool has
    /// been seen without CPU for over 30 s under ThreadSanitizer on two busy cores).
    static let healthyTimeout: Duration = .seconds(300)

    static func benchmarkCase(_ pattern: Groups.Pattern, on backend: Backend) -> BenchmarkCase {
        BenchmarkCase(
            workload: "group", backend: backend.id, parameters: [Parameter("pattern", pattern.rawValue)],
            allocator: .system)
    }

    @Test("every group pattern passes on every backend", arguments: workloadBackends, Groups.Pattern.allCases)
    func passesOnEveryBackend(backend: Backend, pattern: Groups.Pattern) async throws {
        let workload = Groups(timeout: Self.healthyTimeout)
        let benchmarkCase = Self.benchmarkCase(pattern, on: backend)
        let error = try await exercise({ try workload.prepare(benchmarkCase, backend: backend) }, counts: [1, 7, 200])
        #expect(error == nil, "\(benchmarkCase.id): \(error.map(String.init(describing:)) ?? "")")
    }

    @Test("notify reports p50 and p99 of its latency in ns", arguments: workloadBackends)
    func notifyFigures(backend: Backend) async throws {
        let workload = Groups(timeout: Self.healthyTimeout)
        let result = try await exerciseSampled(
            { try workload.prepare(Self.benchmarkCase(.notify, on: backend), backend: backend) },
            warmUp: 5, sampled: 100)
        #expect(result.error == nil, "\(backend.id): \(String(describing: result.error))")
        let p50 = try #require(result.metrics["notify_ns.p50"]), p99 = try #require(result.metrics["notify_ns.p99"])
        #expect(
            p50.unit == .nanoseconds && p99.unit == .nanoseconds && p50.value <= p99.value,
            "\(backend.id): \(result.metrics)")
    }

    @Test("a task lost from a fan-out round fails it by the deadline with the count, and the operation stays failed")
    func lostTaskFailsFanOut() async throws {
        // Two workers: rounds of 4 tasks. Submission 3 is the first round's last task.
        let error = try await exercise(
            {
                Groups.operation(
                    .fanOut, on: FaultyRuntime(fault: .drop(submission: 3), workers: 2), timeout: Self.lostTaskTimeout)
            }, counts: [20, 20])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.hasPrefix("only 3 of 4 tasks of the group ran within"), "\(message)")
    }

    @Test("a group wait that returns before its round has run fails fan-out with the count it found")
    func earlyWaitFailsFanOut() async throws {
        // Two workers: rounds of 4 tasks. Submission 3, the first round's last, runs only when the
        // next round starts, so the first wait returns with 3 counted, whatever the timing.
        let error = try await exercise(
            { Groups.operation(.fanOut, on: FaultyRuntime(fault: .lateGroupMember(submission: 3), workers: 2)) },
            counts: [20])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(
            message == "group.wait returned with 3 of 4 tasks run: it did not wait for the whole group", "\(message)")
    }

    @Test("a task lost from the oversubscribed fan-out fails it by the deadline, and the operation stays failed")
    func lostTaskFailsOversubscribedFanOut() async throws {
        // Several submitters share one runtime, so which group loses submission 3 is a race: the
        // message is the lost task's group's, whichever submitter's it was.
        let error = try await exercise(
            {
                Groups.operation(
                    .fanOutOversubscribed, on: FaultyRuntime(fault: .drop(submission: 3), workers: 2),
                    timeout: Self.lostTaskTimeout)
            }, counts: [40, 40])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(message.hasPrefix("only ") && message.contains("tasks of the group ran within"), "\(message)")
    }

    @Test("a lost leaving task fails notify by the deadline, naming the operation")
    func lostLeaveFailsNotify() async throws {
        // The notify is registered while the group is non-empty (no submission), so the first
        // submission is operation 0's leaving task.
        let error = try await exercise(
            {
                Groups.operation(
                    .notify, on: FaultyRuntime(fault: .drop(submission: 0), workers: 2), timeout: Self.lostTaskTimeout)
            }, counts: [5, 5])
        let message = try #require(
            verificationMessage(error), "expected verificationFailed, got \(String(describing: error))")
        #expect(
            message.hasPrefix("the notify block of operation 0 did not run within") && message.contains("never left"),
            "\(message)")
    }
}

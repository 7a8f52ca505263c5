import Counters
import Results
import RuntimeKit
import Testing

/// Another package's counter sources join `CounterSet` through `register`. Only refusals and
/// opening here: a registration that succeeds would add metrics to every other test of this
/// process (Examples/ registers one for real).
@Suite("counter sources: another package's")
struct CounterRegistrationTests {
    /// Reports a metric a built-in source already reports.
    final class SecondSyscalls: CounterSource {
        static let catalogue = [Metric("syscalls", unit: .events, kind: .event, heading: "syscalls/op")]
        let id = "second-syscalls"
        let availability: [String: Availability] = ["syscalls": .available]
        let metrics = ["syscalls"]
        init() {}
        func read(into slots: UnsafeMutableBufferPointer<Double>) { slots[0] = 0 }
    }

    /// Counts only on one backend, and says so on the others.
    final class OneBackendOnly: CounterSource {
        static let catalogue = [Metric("test.one-backend", unit: .events, kind: .event, heading: "test events/op")]
        let id = "one-backend"
        let availability: [String: Availability]
        var metrics: [String] { availability["test.one-backend"] == .available ? ["test.one-backend"] : [] }
        convenience init() { self.init(backend: nil) }
        init(backend: String?) {
            availability = [
                "test.one-backend": backend == "fifo-dispatch"
                    ? .available : .unavailable(reason: "counts fifo-dispatch only")
            ]
        }
        func read(into slots: UnsafeMutableBufferPointer<Double>) { if !slots.isEmpty { slots[0] = 1 } }
    }

    @Test("a metric another source reports is refused, naming both; the registry stays as it was")
    func duplicateMetric() {
        let before = CounterSet.all.count
        #expect(
            throws: RegistrationError.duplicateMetric(
                name: "syscalls", type: "\(SecondSyscalls.self)", other: "SyscallCounters")
        ) {
            try CounterSet.register([SecondSyscalls.self])
        }
        #expect(throws: RegistrationError.registeredTwice(type: "RUsageCounters")) {
            try CounterSet.register([RUsageCounters.self])
        }
        #expect(CounterSet.all.count == before)
    }

    @Test(
        """
        a source is opened for the case's backend: init(backend:) defaults to init(), \
        and one that counts one runtime says why not on another
        """)
    func openedForTheBackend() {
        #expect(OneBackendOnly(backend: "fifo-dispatch").metrics == ["test.one-backend"])
        #expect(
            OneBackendOnly(backend: "libdispatch").availability["test.one-backend"]
                == .unavailable(reason: "counts fifo-dispatch only"))
        let rusage = RUsageCounters(backend: "fifo-dispatch")
        #expect(rusage.metrics == RUsageCounters().metrics)
    }
}

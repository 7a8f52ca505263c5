import PThreadPrimitives
import Testing

@Suite("injected faults: RUNTIMEBENCH_FAULTS read")
struct InjectedFaultsTests {
    @Test("every path with its value; delays with or without ns; spaces and empty items ignored")
    func parse() throws {
        let faults = try InjectedFaults.parse("fifo-sync=2ns, steal=50 ,task-allocation=1,,semaphore-spin=0.5")
        #expect(faults.fifoSyncNanoseconds == 2 && faults.stealNanoseconds == 50)
        #expect(faults.taskAllocations == 1 && faults.semaphoreSpinFactor == 0.5)
        #expect(faults.description == "fifo-sync=2.0ns, steal=50.0ns, task-allocation=1, semaphore-spin=0.5")
        #expect(try InjectedFaults.parse("").isEmpty && InjectedFaults().description == "none")
    }

    @Test("malformed: an unknown path, no value, a negative delay, a fractional count, a huge factor")
    func malformed() {
        for text in [
            "fifo-async=2ns", "steal", "steal=-1ns", "task-allocation=1.5", "semaphore-spin=1000", "fifo-sync=fast",
        ] {
            #expect(throws: InjectedFaults.Malformed.self, "\(text)") { try InjectedFaults.parse(text) }
        }
    }

    @Test("a build without the FaultInjection trait has no faults, whatever the environment says")
    func normalBuild() {
        // swift test builds without the trait; CI's FaultInjection build is checked by `bench ab` (.ci/run).
        #expect(!InjectedFaults.compiledIn)
        #expect(InjectedFaults.active.isEmpty)
    }
}

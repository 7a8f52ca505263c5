#if canImport(Glibc)
import Glibc
#endif
import PThreadPrimitives
import RuntimeKit
import StealingRuntime
import Synchronization
import Testing

@Suite("work-stealing pool under load")
struct StealingRuntimeStressTests {
    /// How many tasks the big test runs: 10,000,000, or STEALING_STRESS_TASKS (a multiple of
    /// 10,000; the sanitizer runs in .ci/run use 2,000,000).
    static let tasks: Int = {
        let tasks = getenv("STEALING_STRESS_TASKS").flatMap { Int(String(cString: $0)) } ?? 10_000_000
        precondition(
            tasks > 0 && tasks % 10_000 == 0,
            "STEALING_STRESS_TASKS must be a positive multiple of 10,000, got \(tasks)")
        return tasks
    }()

    /// 10,000,000 tasks: half submitted by two outside threads (through the injector), half
    /// spawned from inside tasks (onto workers' own deques, overflowing into the injector and
    /// being stolen). Each task marks its own slot; every slot must end at exactly one.
    @Test("10,000,000 tasks (STEALING_STRESS_TASKS) from outside threads and from inside tasks each run exactly once")
    func tenMillionTasks() async throws {
        let total = Self.tasks
        let wrong = try await onDedicatedThread { () -> Int in
            let outsideThreads = 2
            let outsideTasks = total / 2
            let parents = 5_000
            let childrenPerParent = (total - outsideTasks) / parents
            let runtime = StealingRuntime(workers: 0)
            let ledger = TakenLedger(count: total)
            let group = runtime.makeGroup()

            // Inside: each parent spawns its children from a worker; indices after the outside ones.
            for parent in 0..<parents {
                runtime.async(group: group) {
                    for child in 0..<childrenPerParent {
                        runtime.async(group: group) { ledger.record(outsideTasks + parent * childrenPerParent + child) }
                    }
                }
            }
            // Outside: two threads submit through the injector at the same time.
            let share = outsideTasks / outsideThreads
            let submitters = (0..<outsideThreads).map { thread in
                PThread.spawn {
                    for index in (thread * share)..<((thread + 1) * share) {
                        runtime.async(group: group) { ledger.record(index) }
                    }
                }
            }
            submitters.forEach { $0.join() }
            group.wait()
            runtime.shutdown()

            var wrong = 0
            for index in 0..<total where ledger.times(index) != 1 { wrong += 1 }
            return wrong
        }
        #expect(wrong == 0, "\(wrong) of \(total) tasks did not run exactly once")
    }

    /// `IDLE_POOL_MILLISECONDS` lengthens the idle period (e.g. 5000 for the figure in a note);
    /// the measured CPU time is printed either way.
    @Test("an idle pool parks: its workers use (almost) no CPU while nothing is submitted")
    func idlePoolSleeps() async throws {
        let idle = getenv("IDLE_POOL_MILLISECONDS").flatMap { Int(String(cString: $0)) } ?? 300
        let used = try await onDedicatedThread { () -> Duration in
            let runtime = StealingRuntime(workers: 2)
            defer { runtime.shutdown() }
            runtime.async {}
            sleepFor(milliseconds: 50)  // let the workers finish that block and park
            let before = runtime.workerCPUTime()
            sleepFor(milliseconds: idle)
            return runtime.workerCPUTime() - before
        }
        // Spinning workers would burn twice the idle time; parked ones a few µs. The bound is a
        // tenth of one core's time, far from both, so a busy machine cannot flip the verdict.
        #expect(used < .milliseconds(idle / 10), "an idle pool used \(used) of CPU in \(idle) ms")
    }
}

func sleepFor(milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 { request = remaining }
}

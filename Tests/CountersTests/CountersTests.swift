#if canImport(Glibc)
import Glibc
#endif
@testable import Counters
import PThreadPrimitives
import RuntimeKit
import Synchronization
import Testing

/// Burns `milliseconds` of this thread's own CPU time (not wall time: a busy machine cannot
/// shorten it), so a counter's expected minimum is known.
func burnThreadCPU(milliseconds: Int) {
    var start = timespec(), now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    repeat {
        for _ in 0..<1_000 { _ = getpid() }  // a few µs of real work per check
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    } while (now.tv_sec - start.tv_sec) * 1_000 + (now.tv_nsec - start.tv_nsec) / 1_000_000 < milliseconds
}

/// Two pthreads created after `counters` was opened, each burning `milliseconds` of CPU.
func burnOnTwoNewThreads(milliseconds: Int) {
    var threads: [pthread_t] = []
    for _ in 0..<2 {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Burn(milliseconds)).toOpaque()
        pthread_create(
            &thread, nil,
            { raw in
                let burn = Unmanaged<Burn>.fromOpaque(raw!).takeRetainedValue()
                burnThreadCPU(milliseconds: burn.milliseconds)
                return nil
            }, box)
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}

final class Burn { let milliseconds: Int; init(_ m: Int) { milliseconds = m } }

func skip(_ reason: String) throws {
    print("⊘ skipped: not applicable here: \(reason)")
    try Test.cancel(Comment(rawValue: reason))
}

@Suite("counters: inherit, availability reasons, never a silent zero")
struct CountersTests {
    @Test("task-clock with inherit counts worker threads created after opening (2 × 100 ms ≥ 150 ms)")
    func taskClockCoversWorkers() throws {
        let perf = PerfEventCounters()
        if let reason = perf.availability["task-clock"]?.reason { try skip("task-clock: \(reason)") }
        let before = perf.read()["task-clock"]!
        burnOnTwoNewThreads(milliseconds: 100)
        let after = perf.read()["task-clock"]!
        #expect(
            after - before >= 150_000_000, "task-clock grew by \((after - before) / 1e6) ms over two 100 ms workers")
    }

    @Test("rusage CPU time covers every thread")
    func rusageCoversThreads() {
        let rusage = RUsageCounters()
        let before = rusage.read()
        burnOnTwoNewThreads(milliseconds: 100)
        let after = rusage.read()
        let cpu =
            (after["rusage.user-cpu-ns"]! + after["rusage.system-cpu-ns"]!)
            - (before["rusage.user-cpu-ns"]! + before["rusage.system-cpu-ns"]!)
        #expect(cpu >= 150_000_000, "rusage CPU grew by \(cpu / 1e6) ms over two 100 ms workers")
        #expect(after["rusage.voluntary-switches"] != nil && after["rusage.involuntary-switches"] != nil)
    }

    @Test("run delay: two threads pinned to one CPU wait for it, and what ended threads waited stays counted")
    func runDelayCountsWaitingForACPU() throws {
        let delay = RunDelayCounters()
        if let reason = delay.availability[RunDelayCounters.metricName]?.reason { try skip(reason) }
        let before = delay.read()[RunDelayCounters.metricName]!
        // Each burns 100 ms of its own CPU time on the one CPU, so whichever finishes second was
        // runnable, and not running, for at least the other's 100 ms, minus any CPU it got
        // elsewhere: none, being pinned. A busy machine only adds to it. They stay alive until
        // read: a thread that starts and ends between two reads is never seen.
        let burned = Atomic<Int>(0), release = Atomic<Bool>(false)
        let cpu = UsableCPUs.affinityOfCallingThread().first ?? 0
        let threads = (0..<2).map { _ in
            PThread.spawn(name: "run-delay") {
                let pinned = UsableCPUs.setAffinityOfCallingThread([cpu])
                precondition(pinned == 0, "sched_setaffinity to CPU \(cpu): errno \(errno)")
                burnThreadCPU(milliseconds: 100)
                burned.add(1, ordering: .releasing)
                while !release.load(ordering: .acquiring) { usleep(1_000) }
            }
        }
        while burned.load(ordering: .acquiring) < 2 { usleep(1_000) }
        let after = delay.read()[RunDelayCounters.metricName]!
        release.store(true, ordering: .releasing)
        for thread in threads { thread.join() }
        #expect(after - before >= 50_000_000, "run delay grew by \((after - before) / 1e6) ms")
        let later = delay.read()[RunDelayCounters.metricName]!
        #expect(later >= after, "the total went back from \(after) to \(later) ns when its threads ended")
    }

    @Test("every metric is either read or unavailable with a reason, never both, never silently absent")
    func availabilityIsHonest() {
        let counters = CounterSet()
        let values = counters.read()
        for (metric, availability) in counters.availability {
            if let reason = availability.reason {
                #expect(!reason.isEmpty, "\(metric) is unavailable without a reason")
                #expect(values[metric] == nil, "\(metric) is unavailable (\(reason)) yet has a value")
            } else {
                #expect(values[metric] != nil, "\(metric) is said to be available but was not read")
            }
        }
        for metric in [
            "cycles", "instructions", "cache-misses", "branch-misses", "task-clock", "syscalls",
            "rusage.voluntary-switches", "jemalloc.thread-allocated-bytes",
        ] {
            #expect(counters.availability[metric] != nil, "\(metric) is missing from availability")
        }
    }

    @Test("hardware counters on a machine without a PMU say so, with perf_event_open's reason")
    func hardwareCounters() {
        let perf = PerfEventCounters()
        for metric in ["cycles", "instructions", "cache-misses", "branch-misses"] {
            switch perf.availability[metric] {
            case .unavailable(let reason):
                #expect(reason.contains("perf_event_open") || reason.contains("excluded"), "\(reason)")
            case .available:
                #expect((perf.read()[metric] ?? 0) > 0, "\(metric) is available but read 0 while this test ran")
            case .none: Issue.record("\(metric) missing")
            }
        }
    }

    @Test("PAPI: a definite state with a reason; installed here, it is found")
    func papi() {
        let probe = PAPIProbe()
        #expect(probe.summary.hasPrefix("available") || probe.summary.hasPrefix("unavailable: "))
        if access("/usr/lib/x86_64-linux-gnu/libpapi.so.7.0", R_OK) == 0 {
            if case .notInstalled = probe.state {
                Issue.record("libpapi.so.7.0 is installed but the probe did not load it")
            }
        }
    }

    @Test("jemalloc: unavailable with the reason when not preloaded")
    func jemallocNotPreloaded() throws {
        if let preload = getenv("LD_PRELOAD"), String(cString: preload).contains("jemalloc") {
            try skip("this process runs with jemalloc preloaded")
        }
        let jemalloc = JemallocCounters()
        #expect(jemalloc.read().isEmpty)
        let reason = jemalloc.availability["jemalloc.thread-allocated-bytes"]?.reason ?? ""
        #expect(reason.contains("not preloaded") || reason.contains("replaces malloc"), "\(reason)")
        // The install hint only where jemalloc is not installed: doctor told an installed machine to install it.
        if reason.contains("not preloaded") {
            #expect(reason.contains("tools/install-deps.sh") == (JemallocLibrary.locate() == nil), "\(reason)")
        }
    }

    @Test("kernel events excluded without root: each reason says what counts instead, if anything")
    func kernelEventsExcluded() {
        #expect(PerfEventCounters.withoutKernelEvents("context-switches").contains("rusage.voluntary-switches"))
        let migrations = PerfEventCounters.withoutKernelEvents("cpu-migrations")
        #expect(!migrations.contains("switches") && migrations.contains("perf_event_paranoid"), "\(migrations)")
    }

    @Test("syscalls: not opened unless asked for by name, and then opened or unavailable with the tracepoint's reason")
    func syscallsOnlyWhenAsked() {
        let plain = CounterSet()
        #expect(plain.sources.compactMap { $0 as? SyscallCounters }.allSatisfy { $0.metrics.isEmpty }, "not opened")
        #expect(!plain.names.contains("syscalls"))
        let reason = plain.availability["syscalls"]?.reason ?? ""
        #expect(reason.contains("--events syscalls") && reason.contains("130 ns"), "\(reason)")

        let asked = CounterSet(events: ["syscalls"])
        #expect(asked.sources.firstIndex { $0 is SyscallCounters } == 1, "right after perf's events")
        #expect(!asked.sources.contains { $0 is RequestedEventCounters }, "not passed on as a PAPI or perf name")
        if let why = asked.availability["syscalls"]?.reason {
            #expect(!why.contains("--events"), "asked for, it says why the tracepoint could not open: \(why)")
        } else {
            #expect(asked.names.contains("syscalls"))
        }
        #expect(RequestedEventCounters.unknown(["syscalls"]).isEmpty)
        #expect(RequestedEventCounters.metrics(for: ["syscalls"]).isEmpty, "described once, by SyscallCounters")
    }

    @Test("syscalls: the tracepoint counts at least the system calls made")
    func syscalls() throws {
        let counter = SyscallCounters()
        if let reason = counter.availability["syscalls"]?.reason { try skip("syscalls: \(reason)") }
        let calls = 10_000
        let before = counter.read()["syscalls"]!
        for _ in 0..<calls { _ = getppid() }
        let after = counter.read()["syscalls"]!
        #expect(after - before >= Double(calls), "\(after - before) syscalls counted for \(calls) getppid() calls")
    }
}
